import {createHash} from 'node:crypto';

/** The served version when the config gives the feed its own title: the copy's version and that title. */
export function titledVersion(version: string, title: string | undefined): string {
  return title === undefined ? version : createHash('sha256').update(`${version}\u0000${title}`).digest('hex');
}
