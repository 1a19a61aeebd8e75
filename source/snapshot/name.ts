import {WorkbenchError} from '../core/errors.js';

// A folder name on every file system: letters, digits, dot, dash, underscore; starting with a
// letter or digit, so neither `.`/`..` nor a hidden or temp-file name can be one.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A snapshot's name, checked before it becomes a folder under WORKBENCH_HOME/snapshots/. */
export function checkSnapshotName(name: string | undefined, action: string): string {
  if (name === undefined || name === '') throw new WorkbenchError('invalid_argument', `snapshot ${action} needs a name, e.g. "home-page"`);
  if (!NAME.test(name)) {
    const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
    throw new WorkbenchError(
      'invalid_argument',
      `snapshot name ${shown} is not allowed: use up to 100 letters, digits, ".", "-" and "_", starting with a letter or digit (no "/" or "..")`,
    );
  }
  return name;
}
