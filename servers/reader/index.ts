// The reader HTTP server (spec 2, part A): `workbench serve reader` calls runReaderServer (main.ts).
export {buildReaderApp, DEFAULT_BODY_LIMIT, type ReaderAppOptions} from './app.js';
export {startReaderServer, type ReaderServer, type ReaderServerOptions} from './start-server.js';
export {runReaderServer, type ReaderFlags} from './main.js';
export {errorAnswer} from '../kit/index.js';
export {createReaderService, startPolling, type LocalReaderService, type ReaderDeps, type ReaderServiceOptions} from '../../source/feeds/service/index.js';
export {openStore, defaultReaderDatabase, type Store} from '../../source/feeds/store/index.js';
export {createGreader, type Greader} from '../../source/feeds/greader/greader-service.js';
export {setApiPassword} from '../../source/feeds/greader/auth.js';
export {openModelJudge} from '../../source/feeds/ingestors/scoring/index.js';
