import {createHmac, randomBytes, scrypt, timingSafeEqual} from 'node:crypto';
import {promisify} from 'node:util';
import type {Knex} from 'knex';
import {WorkbenchError} from '../../core/errors.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: {N: number; r: number; p: number; maxmem: number}) => Promise<Buffer>;
// scrypt's interactive-login parameters (N=2^15, r=8, p=1): ~50 ms per sign-in, 32 MB.
const SCRYPT = {N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024};
export const MIN_PASSWORD = 8;

/**
 * The Google Reader API's users (migration 007): an API password per user, kept as its scrypt
 * hash, and a per-user secret from which the ClientLogin token and the edit token (`T`) are
 * derived. Setting a password makes a new secret, so every client signed in before is signed out.
 */
export async function setApiPassword(db: Knex, username: string, password: string, nowMs: number): Promise<void> {
  const user = username.trim();
  if (!/^[\w.@+-]{1,200}$/.test(user)) throw new WorkbenchError('invalid_argument', 'the user name takes letters, digits and . _ @ + - (at most 200)');
  if (password.length < MIN_PASSWORD) throw new WorkbenchError('invalid_argument', `the API password must be at least ${MIN_PASSWORD} characters`);
  if (password.length > 1024) throw new WorkbenchError('invalid_argument', 'the API password is longer than 1024 characters');
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  const row = {username: user, password_hash: `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`, token_secret: randomBytes(32).toString('base64'), updated_at: nowMs};
  await db('reader_api_users')
    .insert({...row, created_at: nowMs})
    .onConflict('username')
    .merge(row);
}

interface UserRow {
  username: string;
  password_hash: string;
  token_secret: string;
}

/** ClientLogin: the token for a right user and password, else null — the same answer whether the user exists or not. */
export async function signIn(db: Knex, username: string, password: string): Promise<string | null> {
  const row = (await db('reader_api_users').where('username', username.trim()).first()) as UserRow | undefined;
  // A user that does not exist costs the same scrypt: the time does not tell which it was.
  const [, salt, expected] = (row?.password_hash ?? `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`).split('$');
  const hash = await scryptAsync(password, Buffer.from(salt!, 'base64'), 32, SCRYPT);
  const ok = timingSafeEqual(hash, Buffer.from(expected!, 'base64'));
  return row && ok ? authToken(row) : null;
}

/** The user a `GoogleLogin auth=` token belongs to, or null. */
export async function userOfToken(db: Knex, token: string): Promise<{username: string; editToken: string} | null> {
  const slash = token.lastIndexOf('/');
  if (slash <= 0 || token.length > 400) return null;
  const row = (await db('reader_api_users').where('username', token.slice(0, slash)).first()) as UserRow | undefined;
  if (!row || !same(authToken(row), token)) return null;
  return {username: row.username, editToken: editToken(row)};
}

export function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function authToken(row: UserRow): string {
  return `${row.username}/${mac(row, 'auth')}`;
}

/** The `T` token of edits: 57 characters, like Google's. */
function editToken(row: UserRow): string {
  return mac(row, 'edit').slice(0, 57);
}

function mac(row: UserRow, purpose: string): string {
  return createHmac('sha256', Buffer.from(row.token_secret, 'base64')).update(`${purpose}:${row.username}`).digest('hex');
}
