// Makes the compiled entry point executable so `npx workbench` and the bin link run it directly.
import {chmodSync, existsSync} from 'node:fs';
const entry = new URL('../dist/source/cli.js', import.meta.url);
if (existsSync(entry)) chmodSync(entry, 0o755);
