import {z} from 'zod';
import type {FetchOutcome, NetworkSource, SocialStatus} from '../types.js';
import {baseUrl, exactlyOne, followName, secret, wireDate} from './config-fields.js';
import {badShape, requestJson} from './http-json.js';
import {textLinks} from './status-text.js';

// kind_2: Bluesky through the AT Protocol's XRPC (docs.bsky.app: app.bsky.feed.getAuthorFeed,
// app.bsky.feed.getFeed, com.atproto.server.createSession).

const PUBLIC_APPVIEW = 'https://public.api.bsky.app';
const DEFAULT_PDS = 'https://bsky.social';
const PAGE = 100;

const config = z
  .object({
    service: baseUrl.optional(),
    actor: followName(/^(did:[a-z]+:[\w.:%-]+|@?[\w.-]+\.[\w.-]+)$/i, 'must be a handle like alice.bsky.social or a DID').optional(),
    feed: followName(/^at:\/\/[^/\s]+\/app\.bsky\.feed\.generator\/[\w.-]+$/, 'must be a feed generator AT URI: at://<did>/app.bsky.feed.generator/<name>').optional(),
    identifier: z.string().trim().min(1).max(300).optional(),
    appPassword: secret.optional(),
  })
  .strict()
  .superRefine(exactlyOne(['actor', 'feed']))
  .superRefine((value, context) => {
    if ((value.identifier === undefined) !== (value.appPassword === undefined))
      context.addIssue({code: 'custom', message: 'identifier and appPassword go together (an app password signs in as that account)', path: ['appPassword']});
  });

export type BlueskyConfig = z.infer<typeof config>;

const author = z.object({did: z.string(), handle: z.string(), displayName: z.string().nullish()});
const feedViewPost = z.object({
  post: z.object({
    uri: z.string(),
    author,
    record: z.object({
      text: z.string().catch(''),
      createdAt: wireDate,
      reply: z
        .object({root: z.object({uri: z.string()}), parent: z.object({uri: z.string()})})
        .nullish()
        .catch(null),
      facets: z
        .array(z.object({features: z.array(z.object({$type: z.string(), uri: z.string().optional(), tag: z.string().optional()}).passthrough())}))
        .nullish()
        .catch(null),
      embed: z
        .object({external: z.object({uri: z.string()}).nullish()})
        .passthrough()
        .nullish()
        .catch(null),
    }),
    likeCount: z.number().nonnegative().catch(0),
    repostCount: z.number().nonnegative().catch(0),
    replyCount: z.number().nonnegative().catch(0),
  }),
  reason: z.object({$type: z.string(), by: author.nullish()}).passthrough().nullish().catch(null),
});
const page = z.object({feed: z.array(z.unknown()), cursor: z.string().nullish()});

export const bluesky: NetworkSource<BlueskyConfig> = {
  kind: 'kind_2',
  network: 'bluesky',
  configSchema: config,
  credentialFields: ['appPassword'],
  describe(value) {
    if (value.actor) {
      const actor = value.actor.replace(/^@/, '');
      return {title: `Bluesky @${actor}`, siteUrl: `https://bsky.app/profile/${actor}`};
    }
    const [, did, , name] = /^at:\/\/([^/]+)\/([^/]+)\/(.+)$/.exec(value.feed!)!;
    return {title: `Bluesky feed ${name}`, siteUrl: `https://bsky.app/profile/${did}/feed/${name}`};
  },
  async fetch(value, request) {
    const now = new Date();
    const ask = (url: URL, extra: {method?: 'POST'; body?: unknown; token?: string}) =>
      requestJson(url, {
        method: extra.method,
        body: extra.body,
        headers: extra.token ? {authorization: `Bearer ${extra.token}`} : {},
        credentialField: value.appPassword ? 'appPassword' : null,
        network: 'Bluesky',
        signal: request.signal,
        networkStack: request.network,
        timeoutMs: request.timeoutMs,
        now,
      });
    let requests = 0;
    let base = value.service ?? PUBLIC_APPVIEW;
    let token: string | undefined;
    if (value.appPassword) {
      base = value.service ?? DEFAULT_PDS;
      const url = new URL(`${base}/xrpc/com.atproto.server.createSession`);
      const session = await ask(url, {method: 'POST', body: {identifier: value.identifier, password: value.appPassword}});
      requests++;
      const jwt = z.object({accessJwt: z.string()}).safeParse(session.body);
      if (!jwt.success) throw badShape('Bluesky', url, 'a session');
      token = jwt.data.accessJwt;
    }
    const method = value.actor ? 'app.bsky.feed.getAuthorFeed' : 'app.bsky.feed.getFeed';
    const statuses: SocialStatus[] = [];
    const since = request.since ? Date.parse(request.since) : Number.NEGATIVE_INFINITY;
    let cursor: string | undefined;
    let rateLimit: FetchOutcome['rateLimit'] = null;
    for (;;) {
      const url = new URL(`${base}/xrpc/${method}`);
      if (value.actor) url.searchParams.set('actor', value.actor.replace(/^@/, ''));
      else url.searchParams.set('feed', value.feed!);
      url.searchParams.set('limit', String(Math.min(PAGE, Math.max(1, request.limit - statuses.length))));
      if (cursor) url.searchParams.set('cursor', cursor);
      const answer = await ask(url, {token});
      requests++;
      rateLimit = answer.rateLimit ?? rateLimit;
      const parsed = page.safeParse(answer.body);
      if (!parsed.success) throw badShape('Bluesky', url, 'a feed');
      let older = false;
      for (const item of parsed.data.feed) {
        const view = feedViewPost.safeParse(item);
        if (!view.success) continue;
        const status = normalise(view.data);
        statuses.push(status);
        if (Date.parse(status.createdAt) < since) older = true;
        if (statuses.length >= request.limit) break;
      }
      cursor = parsed.data.cursor ?? undefined;
      if (!cursor || parsed.data.feed.length === 0 || older || statuses.length >= request.limit) break;
    }
    // An author feed is in time order; a custom feed is in whatever order its generator chose.
    return {statuses, timeOrdered: value.actor !== undefined, rateLimit, requests};
  },
};

function normalise(view: z.infer<typeof feedViewPost>): SocialStatus {
  const {post, reason} = view;
  const rkey = post.uri.split('/').pop() ?? '';
  const links = new Set<string>();
  const tags = new Set<string>();
  for (const facet of post.record.facets ?? [])
    for (const feature of facet.features) {
      if (feature.$type === 'app.bsky.richtext.facet#link' && feature.uri) links.add(feature.uri);
      if (feature.$type === 'app.bsky.richtext.facet#tag' && feature.tag) tags.add(feature.tag.toLowerCase());
    }
  for (const link of textLinks(post.record.text)) links.add(link);
  if (post.record.embed?.external?.uri) links.add(post.record.embed.external.uri);
  const reply = post.record.reply;
  const repost = reason?.$type === 'app.bsky.feed.defs#reasonRepost' && reason.by ? reason.by.handle : null;
  return {
    key: post.uri,
    url: `https://bsky.app/profile/${post.author.handle}/post/${rkey}`,
    author: {handle: post.author.handle, name: post.author.displayName || null, url: `https://bsky.app/profile/${post.author.handle}`},
    title: null,
    text: post.record.text,
    html: null,
    createdAt: new Date(post.record.createdAt).toISOString(),
    editedAt: null,
    engagement: {likes: post.likeCount, reposts: post.repostCount, replies: post.replyCount},
    repostedBy: repost,
    replyTo: reply?.parent.uri ?? null,
    // AT URIs name the author's DID: a reply whose parent is the author's own post continues their thread.
    replyToSelf: reply ? reply.parent.uri.startsWith(`at://${post.author.did}/`) : false,
    threadKey: reply?.root.uri ?? post.uri,
    links: [...links],
    tags: [...tags],
    deleted: false,
  };
}
