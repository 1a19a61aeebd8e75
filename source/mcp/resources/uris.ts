import {INVALID_PARAMS, ProtocolError} from '../protocol-error.js';

/** The resources `workbench mcp` serves, by URI; ids are percent-encoded in the path. */
export type ResourceRef =
  {kind: 'incidents'} | {kind: 'incident'; id: string} | {kind: 'output'; id: string} | {kind: 'traffic'; id: string} | {kind: 'pages'; id: string} | {kind: 'project'};

export const INCIDENTS_URI = 'workbench://incidents';
export const PROJECT_URI = 'workbench://project';

/** resources/templates/list: one template per kind of resource that has an id. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'workbench://incidents/{id}',
    name: 'incident',
    title: 'One incident, whole',
    description: 'Every field of one inbox incident, its full message and its story (the page error, request and server error around it). Ids come from workbench://incidents.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'workbench://processes/{id}/output',
    name: 'process-output',
    title: 'A process: status and newest output',
    description: 'A supervised process’s status (running, exited with its code, crashed) and the tail of its output; updated when it prints or changes state.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'workbench://proxies/{id}/traffic',
    name: 'proxy-traffic',
    title: 'A dev proxy’s recent traffic',
    description: 'The newest entries of a dev proxy’s log: requests with status and timing, browser errors, page loads; updated as traffic arrives.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'workbench://proxies/{id}/pages',
    name: 'proxy-pages',
    title: 'Pages open through a dev proxy',
    description: 'The browser tabs connected through a dev proxy: URL, title, errors and failed requests since their load.',
    mimeType: 'text/plain',
  },
] as const;

export function resourceUri(ref: ResourceRef): string {
  switch (ref.kind) {
    case 'incidents':
      return INCIDENTS_URI;
    case 'project':
      return PROJECT_URI;
    case 'incident':
      return `${INCIDENTS_URI}/${encodeURIComponent(ref.id)}`;
    case 'output':
      return `workbench://processes/${encodeURIComponent(ref.id)}/output`;
    case 'traffic':
    case 'pages':
      return `workbench://proxies/${encodeURIComponent(ref.id)}/${ref.kind}`;
  }
}

const PATTERNS: [RegExp, (id: string) => ResourceRef][] = [
  [/^workbench:\/\/incidents\/([^/]+)$/, (id) => ({kind: 'incident', id})],
  [/^workbench:\/\/processes\/([^/]+)\/output$/, (id) => ({kind: 'output', id})],
  [/^workbench:\/\/proxies\/([^/]+)\/traffic$/, (id) => ({kind: 'traffic', id})],
  [/^workbench:\/\/proxies\/([^/]+)\/pages$/, (id) => ({kind: 'pages', id})],
];

/** The resource a URI names, or -32602 naming the resources there are (an unknown URI is the caller's mistake). */
export function parseResourceUri(uri: string): ResourceRef {
  if (uri === INCIDENTS_URI) return {kind: 'incidents'};
  if (uri === PROJECT_URI) return {kind: 'project'};
  for (const [pattern, make] of PATTERNS) {
    const match = pattern.exec(uri);
    if (!match) continue;
    let id: string;
    try {
      id = decodeURIComponent(match[1]!);
    } catch {
      break;
    }
    if (id.length > 0 && id.length <= 4200) return make(id);
  }
  const shown = uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
  throw new ProtocolError(
    INVALID_PARAMS,
    `unknown resource ${JSON.stringify(shown)}: the resources are ${INCIDENTS_URI}, ${PROJECT_URI} and ${RESOURCE_TEMPLATES.map((template) => template.uriTemplate).join(', ')}`,
  );
}
