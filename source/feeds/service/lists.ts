import {randomBytes} from 'node:crypto';
import {WorkbenchError} from '../../core/errors.js';
import {addListItem, allListRows, articleExists, deleteListRow, findListRow, insertListRow, isUniqueViolation, removeListItem, type ListRow} from '../store/index.js';
import type {List, Visibility} from '../types.js';
import type {ReaderContext} from './context.js';
import {iso} from '../../storage/time.js';

export function listRecord(context: ReaderContext, row: ListRow): List {
  const list: List = {id: row.id, title: row.title, visibility: row.visibility, itemCount: row.item_count, createdAt: iso(row.created_at)};
  if (row.visibility === 'public' && row.token) {
    list.token = row.token;
    list.rssUrl = context.rssUrl(row.token);
  }
  return list;
}

/** 144 random bits, URL-safe: the share token is the only thing guarding a public list's address. */
export function shareToken(): string {
  return randomBytes(18).toString('base64url');
}

export async function listLists(context: ReaderContext): Promise<List[]> {
  return (await allListRows(context.store.db)).map((row) => listRecord(context, row));
}

export async function createList(context: ReaderContext, title: string, visibility: Visibility): Promise<List> {
  const {store} = context;
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await insertListRow(store.db, store.dialect, title, visibility, visibility === 'public' ? shareToken() : null, context.nowMs());
      return await existingList(context, id);
    } catch (error) {
      // A token collision (2^-144) is retried; anything else is real.
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

export async function deleteList(context: ReaderContext, id: number): Promise<void> {
  if (!(await deleteListRow(context.store.db, id))) throw new WorkbenchError('not_found', `no list ${id}`);
}

export async function addToList(context: ReaderContext, listId: number, articleId: number): Promise<List> {
  const {db} = context.store;
  await existingList(context, listId);
  if (!(await articleExists(db, articleId))) throw new WorkbenchError('not_found', `no article ${articleId}`);
  await addListItem(db, listId, articleId, context.nowMs());
  return existingList(context, listId);
}

export async function removeFromList(context: ReaderContext, listId: number, articleId: number): Promise<List> {
  await existingList(context, listId);
  if (!(await removeListItem(context.store.db, listId, articleId, context.nowMs()))) throw new WorkbenchError('not_found', `article ${articleId} is not in list ${listId}`);
  return existingList(context, listId);
}

export async function existingList(context: ReaderContext, id: number): Promise<List> {
  const row = await findListRow(context.store.db, id);
  if (!row) throw new WorkbenchError('not_found', `no list ${id}`);
  return listRecord(context, row);
}
