import type {Server} from 'node:http';
import {WorkbenchError} from '../../core/errors.js';

// How far past a taken port `nextFree` looks.
const NEXT_FREE_TRIES = 100;

/** Listens on host:port (0: any free port) and resolves with the port taken; a taken port is an error naming it, or the next free one when asked. */
export async function listenOn(server: Server, host: string, port: number, nextFree: boolean): Promise<number> {
  for (let candidate = port, tries = 0; ; candidate++, tries++) {
    try {
      await tryListen(server, host, candidate);
      const address = server.address();
      return typeof address === 'object' && address ? address.port : candidate;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && nextFree && port !== 0 && candidate < 65535 && tries < NEXT_FREE_TRIES) continue;
      if (code === 'EADDRINUSE') {
        throw new WorkbenchError(
          'conflict',
          nextFree && port !== 0
            ? `ports ${port}–${candidate} on ${host} are all in use; choose another --port`
            : `port ${port} on ${host} is already in use (EADDRINUSE); choose another --port, or ask for the next free one`,
        );
      }
      if (code === 'EACCES') throw new WorkbenchError('invalid_argument', `port ${candidate} on ${host} needs privileges this user lacks (EACCES); choose a port above 1023`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new WorkbenchError('invalid_argument', `cannot listen on ${host}: no such local address (${code})`);
      throw error;
    }
  }
}

function tryListen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
