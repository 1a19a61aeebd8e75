import type {Readable} from 'node:stream';
import {parse, type GraphQLSchema} from 'graphql';
import type {GqlModel} from '../types.js';
import {receiveFile} from './receive-file.js';
import type {StagedFile} from './staged-file.js';
import {UploadRefused} from './upload-refused.js';
import {uploadTargets} from './upload-targets.js';

/** At most this many files in one request. */
export const MAX_FILES = 10;

/** A part as @fastify/multipart hands it over (only what is read here). */
export type MultipartPart =
  {type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean} | {type: 'file'; fieldname: string; file: Readable; filename?: string; mimetype?: string};

export interface MultipartParams {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
  extensions?: Record<string, unknown>;
}

/**
 * A GraphQL multipart request (github.com/jaydenseric/graphql-multipart-request-spec): the
 * `operations` part (the JSON request, its file variables null), the `map` part
 * (`{"<part name>": ["variables.<path>"]}`), then the file parts, each streamed into the storage
 * of the column its path writes (staged: pushed onto `staged` so the caller can discard them if
 * anything fails) and put in the variables. Anything out of shape is an UploadRefused naming it.
 */
export async function readMultipartRequest(parts: AsyncIterable<MultipartPart>, served: {model: GqlModel; schema: GraphQLSchema}, staged: StagedFile[]): Promise<MultipartParams> {
  let operations: MultipartParams | undefined;
  let map: Map<string, string[]> | undefined;
  let targetOf: ReturnType<typeof uploadTargets> | undefined;
  const received = new Set<string>();
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.valueTruncated) throw new UploadRefused(413, `the ${part.fieldname} part is too large`);
      if (part.fieldname === 'operations' && !operations) {
        operations = readOperations(part.value);
        targetOf = uploadTargets(served.model, served.schema, parseQuery(operations.query), operations.operationName);
      } else if (part.fieldname === 'map' && operations && targetOf && !map) {
        map = readMap(part.value);
        // Every path checked before any file is read: a map that leads nowhere reads nothing.
        for (const [path] of map.values()) targetOf(path!);
      } else throw new UploadRefused(400, `unexpected part "${part.fieldname}": a multipart request is operations, then map, then the files`);
      continue;
    }
    if (!operations || !map || !targetOf) {
      part.file.resume();
      throw new UploadRefused(400, `the file part "${part.fieldname}" came before ${operations ? 'map' : 'operations'}: send operations, then map, then the files`);
    }
    const paths = map.get(part.fieldname);
    if (!paths) {
      part.file.resume();
      throw new UploadRefused(400, `the file part "${part.fieldname}" is not named in map`);
    }
    if (received.has(part.fieldname)) throw new UploadRefused(400, `the file part "${part.fieldname}" came twice`);
    received.add(part.fieldname);
    const target = targetOf(paths[0]!);
    const file = await receiveFile(part, target);
    staged.push(file);
    setAt(operations, paths[0]!, file);
  }
  if (!operations) throw new UploadRefused(400, 'the multipart request has no operations part (GraphQL multipart request spec: operations, map, files)');
  if (!map) throw new UploadRefused(400, 'the multipart request has no map part (GraphQL multipart request spec: operations, map, files)');
  const missing = [...map.keys()].filter((name) => !received.has(name));
  if (missing.length > 0)
    throw new UploadRefused(400, `map names the file part${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}, which the request does not carry`);
  return operations;
}

function json(value: unknown, what: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new UploadRefused(400, `the ${what} part is not valid JSON: ${(error as Error).message}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readOperations(value: unknown): MultipartParams {
  const operations = json(value, 'operations');
  if (Array.isArray(operations)) throw new UploadRefused(400, 'operations is a batch (an array): send one operation per request');
  if (!isObject(operations) || typeof operations.query !== 'string') throw new UploadRefused(400, 'operations must be a JSON object with a "query" string');
  const {query, variables, operationName, extensions} = operations;
  if (variables !== undefined && variables !== null && !isObject(variables)) throw new UploadRefused(400, 'operations: "variables" must be an object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') throw new UploadRefused(400, 'operations: "operationName" must be a string');
  return {
    query,
    variables: (variables as Record<string, unknown> | undefined) ?? {},
    ...(typeof operationName === 'string' ? {operationName} : {}),
    ...(isObject(extensions) ? {extensions} : {}),
  };
}

function readMap(value: unknown): Map<string, string[]> {
  const map = json(value, 'map');
  if (!isObject(map)) throw new UploadRefused(400, 'map must be a JSON object: {"<file part name>": ["variables.<path>"]}');
  const entries = new Map<string, string[]>();
  for (const [name, paths] of Object.entries(map)) {
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((path) => typeof path === 'string'))
      throw new UploadRefused(400, `map: "${name}" must be a list of paths such as ["variables.file"]`);
    if (paths.length > 1) throw new UploadRefused(400, `map: "${name}" names ${paths.length} places: a file goes to one file column`);
    entries.set(name, paths as string[]);
  }
  if (entries.size > MAX_FILES) throw new UploadRefused(413, `map names ${entries.size} files: at most ${MAX_FILES} in one request`);
  return entries;
}

function parseQuery(query: string) {
  try {
    return parse(query);
  } catch (error) {
    throw new UploadRefused(400, `operations: the query does not parse: ${(error as Error).message}`);
  }
}

/** Puts the file where its path says (`variables.a.0.b`), where the operations hold null. */
function setAt(operations: MultipartParams, path: string, file: StagedFile): void {
  const segments = path.split('.').slice(1);
  let holder: Record<string, unknown> | unknown[] = operations.variables;
  for (const segment of segments.slice(0, -1)) {
    const next: unknown = (holder as Record<string, unknown>)[segment];
    if (typeof next !== 'object' || next === null) throw new UploadRefused(400, `map: ${JSON.stringify(path)}: operations has nothing at ${segment}`);
    holder = next as Record<string, unknown>;
  }
  const last = segments.at(-1)!;
  const current = (holder as Record<string, unknown>)[last];
  if (current !== null && current !== undefined) throw new UploadRefused(400, `map: ${JSON.stringify(path)} must be null in operations (the file takes its place)`);
  (holder as Record<string, unknown>)[last] = file;
}
