import {existsSync} from 'node:fs';
import {WorkbenchError} from '../../core/errors.js';
import {checkProviderName, GATEWAY_PROVIDER, profilePath} from './profiles.js';
import {forgetToken, tokenPath} from './token-store.js';

/** `workbench disconnect <name>`: the token goes, the profile stays (so `connect` works again at once). */
export function disconnect(name: string): {provider: string; forgot: boolean; tokenFile: string} {
  checkProviderName(name);
  const forgot = forgetToken(name);
  if (!forgot && name !== GATEWAY_PROVIDER && !existsSync(profilePath(name))) {
    throw new WorkbenchError('not_found', `no provider "${name}" (no ${profilePath(name)}); workbench connect --list shows them`);
  }
  return {provider: name, forgot, tokenFile: tokenPath(name)};
}
