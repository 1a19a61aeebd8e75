import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {WorkbenchError} from '../../../source/core/errors.js';
import {same} from '../../../source/feeds/greader/auth.js';
import type {Greader} from '../../../source/feeds/greader/greader-service.js';
import {one, type Fields} from '../../../source/feeds/greader/params.js';
import {acceptForms} from './form-body.js';

// Every parameter the clients send (Google's, FreshRSS's, Miniflux's, newsboat's), one or repeated.
const value = {
  anyOf: [
    {type: 'string', maxLength: 4096},
    {type: 'array', maxItems: 10_000, items: {type: 'string', maxLength: 4096}},
  ],
} as const;
const PARAMS = [
  'output',
  'n',
  'c',
  'xt',
  'it',
  'ot',
  'nt',
  'r',
  's',
  'i',
  'a',
  't',
  'T',
  'ts',
  'ac',
  'ck',
  'client',
  'quickadd',
  'likes',
  'comments',
  'sharers',
  'includeAllDirectSubscriptions',
  'allcomments',
  'merge',
  'all',
];
const query = {type: 'object', additionalProperties: false, properties: Object.fromEntries(PARAMS.map((name) => [name, value]))} as const;
// A form's fields: known or not (clients add their own), each one text or repeated.
const form = {type: 'object', maxProperties: 100, additionalProperties: value} as const;
const loginQuery = {type: 'object', additionalProperties: false, properties: {output: value, client: value}} as const;

interface User {
  username: string;
  editToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    greaderUser?: User;
  }
}

/**
 * The Google Reader API at FeedHQ's paths (`/accounts/ClientLogin`, `/reader/api/0/…`,
 * `/reader/atom/…`); registered at `/` and under FreshRSS's `/api/greader.php`. Forms in, JSON
 * (or Google's text answers) out; `Authorization: GoogleLogin auth=<token>`; edits need `T`.
 */
export async function greaderRoutes(app: FastifyInstance, {greader}: {greader: Greader}): Promise<void> {
  acceptForms(app);

  // Wrong user or wrong password: one answer, no detail.
  app.post<{Body: Fields}>('/accounts/ClientLogin', {schema: {querystring: loginQuery, body: form}}, async (request, reply) => {
    const fields = {...(request.body ?? {})};
    const token = await greader.signIn(one(fields, 'Email') ?? '', one(fields, 'Passwd') ?? '');
    if (!token) return reply.status(401).type('text/plain; charset=utf-8').send('Error=BadAuthentication\n');
    if (one(request.query as Fields, 'output') === 'json') return {SID: token, LSID: token, Auth: token};
    return reply.type('text/plain; charset=utf-8').send(`SID=${token}\nLSID=${token}\nAuth=${token}\n`);
  });

  await app.register(
    async (api) => {
      api.addHook('preHandler', async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const match = /^GoogleLogin\s+auth=(\S+)$/i.exec(header);
        const user = match ? await greader.authenticate(match[1]!) : null;
        if (!user) return reply.status(401).type('text/plain; charset=utf-8').send('Unauthorized');
        request.greaderUser = user;
      });
      const fields = (request: FastifyRequest): Fields => ({...(request.query as Fields), ...((request.body as Fields | undefined) ?? {})});
      // Edits carry the T token (Google's rule, FreshRSS's too): without it, 401 and the header that tells a client to fetch a new one.
      const edit = (handler: (fields: Fields) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
        const given = one(fields(request), 'T') ?? '';
        if (!same(given, request.greaderUser!.editToken))
          return reply.status(401).header('x-reader-google-bad-token', 'true').type('text/plain; charset=utf-8').send('Unauthorized');
        await handler(fields(request));
        return reply.type('text/plain; charset=utf-8').send('OK');
      };
      // One JSON.stringify, sent as bytes: a 700 KB string would be measured for Content-Length, then encoded again on write.
      const json = (reply: FastifyReply, body: unknown) => reply.type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(body)));
      // Reads come as GET with a query or as POST with a form, whichever the client likes.
      const read = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
        api.get(url, {schema: {querystring: query}}, handler);
        api.post(url, {schema: {querystring: query, body: form}}, handler);
      };

      api.get('/api/0/token', {schema: {querystring: query}}, async (request, reply) => reply.type('text/plain; charset=utf-8').send(request.greaderUser!.editToken));
      api.get('/api/0/user-info', {schema: {querystring: query}}, async (request) => {
        const name = request.greaderUser!.username;
        return {userId: name, userName: name, userProfileId: name, userEmail: name.includes('@') ? name : ''};
      });
      api.get('/api/0/subscription/list', {schema: {querystring: query}}, () => greader.subscriptions());
      api.post(
        '/api/0/subscription/edit',
        {schema: {querystring: query, body: form}},
        edit((body) => greader.editSubscription(body)),
      );
      api.post('/api/0/subscription/quickadd', {schema: {querystring: query, body: form}}, async (request, reply) => {
        const body = fields(request);
        if (!same(one(body, 'T') ?? '', request.greaderUser!.editToken)) return reply.status(401).header('x-reader-google-bad-token', 'true').send('Unauthorized');
        const url = one(body, 'quickadd');
        if (!url) throw new WorkbenchError('invalid_argument', 'quickadd (the feed URL) is required');
        return greader.quickadd(url);
      });
      api.get('/api/0/tag/list', {schema: {querystring: query}}, () => greader.tags());
      api.get('/api/0/unread-count', {schema: {querystring: query}}, () => greader.unreadCounts());
      read('/api/0/stream/contents/*', async (request, reply) => json(reply, await greader.streamContents(streamOf(request), fields(request))));
      read('/api/0/stream/contents', async (request, reply) =>
        json(reply, await greader.streamContents(one(fields(request), 's') ?? 'user/-/state/com.google/reading-list', fields(request))),
      );
      read('/api/0/stream/items/ids', async (request) => greader.itemIds(fields(request)));
      read('/api/0/stream/items/contents', async (request, reply) => json(reply, await greader.itemContents(fields(request))));
      api.post(
        '/api/0/edit-tag',
        {schema: {querystring: query, body: form}},
        edit((body) => greader.editTag(body)),
      );
      api.post(
        '/api/0/mark-all-as-read',
        {schema: {querystring: query, body: form}},
        edit((body) => greader.markAllRead(body)),
      );
      api.get('/atom/*', {schema: {querystring: query}}, async (request, reply) =>
        reply.type('application/atom+xml; charset=utf-8').send(await greader.atom(streamOf(request), fields(request))),
      );
    },
    {prefix: '/reader'},
  );
}

/** The stream id after `stream/contents/` or `atom/`, as the client escaped it (`feed%2F12`, `feed/https%3A…`). */
function streamOf(request: FastifyRequest): string {
  const rest = (request.params as {'*'?: string})['*'] ?? '';
  try {
    return decodeURIComponent(rest);
  } catch {
    throw new WorkbenchError('invalid_argument', 'the stream id is not valid URL encoding');
  }
}
