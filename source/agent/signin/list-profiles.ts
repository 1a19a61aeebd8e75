import {existsSync, readdirSync} from 'node:fs';
import {GATEWAY_PROVIDER, loadProfile, oauthDirectory, PROVIDER_NAME} from './profiles.js';
import {readToken, tokenPath} from './token-store.js';

// Apart from profiles.ts: the listing reads the token store, which itself builds on profiles.ts.

export interface ProfileListing {
  name: string;
  builtIn: boolean;
  /** A token file is stored beside the profile. */
  hasToken: boolean;
  /** ISO UTC, or null for a key that does not expire; undefined without a token or when the token file cannot be read. */
  expiresAt?: string | null;
  /** Why the profile or its token cannot be used, when it cannot. */
  problem?: string;
}

/** Every provider: the built-in gateway and each profile file, with whether a sign-in is stored. */
export async function listProfiles(): Promise<ProfileListing[]> {
  const names = new Set<string>([GATEWAY_PROVIDER]);
  const dir = oauthDirectory();
  if (existsSync(dir)) {
    for (const entry of readdirSync(dir)) {
      const match = /^(.+)\.json$/.exec(entry);
      if (match && !entry.endsWith('.token.json') && PROVIDER_NAME.test(match[1]!)) names.add(match[1]!);
    }
  }
  const listing: ProfileListing[] = [];
  for (const name of [...names].sort()) {
    const item: ProfileListing = {name, builtIn: name === GATEWAY_PROVIDER, hasToken: existsSync(tokenPath(name))};
    try {
      loadProfile(name);
      if (item.hasToken) item.expiresAt = readToken(name)?.expiresAt ?? null;
    } catch (error) {
      item.problem = (error as Error).message;
    }
    listing.push(item);
  }
  return listing;
}
