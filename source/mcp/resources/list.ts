import {z} from 'zod';
import type {Incident} from '../../incidents/index.js';
import type {ProcessInfo} from '../../processes/types.js';
import {getIncidents} from '../../tools/get-incidents.js';
import {proxyAccess} from '../../tools/proxy-access.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {asProtocolError, INVALID_PARAMS, ProtocolError} from '../protocol-error.js';
import {INCIDENTS_URI, PROJECT_URI, resourceUri} from './uris.js';

/** Resources per resources/list page; `nextCursor` leads to the next. */
export const RESOURCES_PAGE = 100;

export interface ListedResource {
  uri: string;
  name: string;
  title: string;
  description?: string;
  mimeType: 'text/plain';
}

const cursorSchema = z.object({offset: z.number().int().min(0).max(1_000_000)});

/** The opaque cursor: where the next page starts. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({offset})).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).offset;
  } catch {
    throw new ProtocolError(INVALID_PARAMS, 'invalid cursor: pass the nextCursor of the previous resources/list answer as it was given');
  }
}

function processResource(info: ProcessInfo): ListedResource {
  return {
    uri: resourceUri({kind: 'output', id: info.id}),
    name: `process-${info.id}`,
    title: `${info.id}: status and output`,
    description: `${info.command.slice(0, 200)} (${info.status})`,
    mimeType: 'text/plain',
  };
}

function incidentResource(incident: Incident): ListedResource {
  return {
    uri: resourceUri({kind: 'incident', id: incident.id}),
    name: `incident-${incident.id}`,
    title: `[${incident.label}] ${incident.source} ×${incident.count}`,
    description: incident.message.split('\n')[0]!.slice(0, 200),
    mimeType: 'text/plain',
  };
}

/** Every resource there is now: the inbox and the project, each process, each proxy's traffic and pages, each incident. */
export async function allResources(context: ToolContext): Promise<ListedResource[]> {
  const listed: ListedResource[] = [
    {uri: INCIDENTS_URI, name: 'incidents', title: 'Error inbox', description: 'Every open incident across processes and proxies, newest problems first', mimeType: 'text/plain'},
    {uri: PROJECT_URI, name: 'project', title: 'Project detection', description: 'Project types, package manager and the scripts run accepts', mimeType: 'text/plain'},
  ];
  if (!context.noDaemon) for (const info of await (await context.daemon()).call('proc.list', {})) listed.push(processResource(info));
  if (!context.noDaemon || context.localProxies)
    for (const proxy of await proxyAccess(context).list()) {
      listed.push({
        uri: resourceUri({kind: 'traffic', id: proxy.id}),
        name: `proxy-${proxy.id}-traffic`,
        title: `${proxy.id}: recent traffic`,
        description: `${proxy.url} → ${proxy.target}`,
        mimeType: 'text/plain',
      });
      listed.push({
        uri: resourceUri({kind: 'pages', id: proxy.id}),
        name: `proxy-${proxy.id}-pages`,
        title: `${proxy.id}: open pages`,
        description: `${proxy.pages} page(s) connected`,
        mimeType: 'text/plain',
      });
    }
  const {incidents} = await getIncidents({limit: 10_000}, context);
  listed.push(...incidents.map(incidentResource));
  return listed;
}

/** resources/list: one page of them from the cursor on. */
export async function listResources(context: ToolContext, cursor?: string): Promise<{resources: ListedResource[]; nextCursor?: string}> {
  const offset = decodeCursor(cursor);
  let listed: ListedResource[];
  try {
    listed = await allResources(context);
  } catch (error) {
    throw asProtocolError(error);
  }
  const resources = listed.slice(offset, offset + RESOURCES_PAGE);
  return offset + RESOURCES_PAGE < listed.length ? {resources, nextCursor: encodeCursor(offset + RESOURCES_PAGE)} : {resources};
}
