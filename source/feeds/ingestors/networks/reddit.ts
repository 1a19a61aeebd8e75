import {z} from 'zod';
import type {FetchOutcome, NetworkSource, SocialStatus} from '../types.js';
import {baseUrl, exactlyOne, followName, secret} from './config-fields.js';
import {badShape, requestJson} from './http-json.js';
import {htmlLinks, postText} from './status-text.js';

// kind_3: Reddit listings (reddit.com/dev/api: /r/<sub>/<sort>, /user/<name>/submitted, multireddits;
// application-only OAuth with client credentials at /api/v1/access_token).

const PAGE = 100;

const config = z
  .object({
    subreddit: followName(/^(r\/)?[A-Za-z0-9_]{2,21}$/, 'must be a subreddit name like rust').optional(),
    user: followName(/^(u\/)?[\w-]{3,20}$/, 'must be a user name like spez').optional(),
    multireddit: followName(/^user\/[\w-]{3,20}\/m\/\w{2,50}$/, 'must look like user/<name>/m/<multi>').optional(),
    sort: z.enum(['new', 'hot', 'top']).optional(),
    base: baseUrl.optional(),
    oauthBase: baseUrl.optional(),
    clientId: z.string().trim().min(1).max(200).optional(),
    clientSecret: secret.optional(),
  })
  .strict()
  .superRefine(exactlyOne(['subreddit', 'user', 'multireddit']))
  .superRefine((value, context) => {
    if ((value.clientId === undefined) !== (value.clientSecret === undefined))
      context.addIssue({code: 'custom', message: 'clientId and clientSecret go together (a Reddit app of type "script" or "web")', path: ['clientSecret']});
  });

export type RedditConfig = z.infer<typeof config>;

const post = z.object({
  name: z.string(),
  title: z.string().catch(''),
  selftext: z.string().nullish(),
  selftext_html: z.string().nullish(),
  url: z.string().nullish(),
  permalink: z.string(),
  author: z.string().catch('[deleted]'),
  created_utc: z.number(),
  edited: z.union([z.literal(false), z.number()]).catch(false),
  score: z.number().catch(0),
  num_comments: z.number().nonnegative().catch(0),
  link_flair_text: z.string().nullish(),
  removed_by_category: z.string().nullish(),
  crosspost_parent: z.string().nullish(),
  is_self: z.boolean().catch(false),
});
const listing = z.object({kind: z.literal('Listing'), data: z.object({after: z.string().nullish(), children: z.array(z.object({kind: z.string(), data: z.unknown()}))})});

export const reddit: NetworkSource<RedditConfig> = {
  kind: 'kind_3',
  network: 'reddit',
  configSchema: config,
  credentialFields: ['clientSecret'],
  describe(value) {
    const site = value.base ?? 'https://www.reddit.com';
    return {title: `Reddit ${label(value)}`, siteUrl: `${site}/${path(value)}`};
  },
  async fetch(value, request) {
    const now = new Date();
    const site = value.base ?? 'https://www.reddit.com';
    const ask = (url: URL, extra: {method?: 'POST'; body?: unknown; headers?: Record<string, string>}) =>
      requestJson(url, {
        ...extra,
        credentialField: value.clientSecret ? 'clientId/clientSecret' : null,
        network: 'Reddit',
        signal: request.signal,
        networkStack: request.network,
        timeoutMs: request.timeoutMs,
        now,
      });
    let requests = 0;
    let api = site;
    let headers: Record<string, string> = {};
    if (value.clientSecret) {
      const url = new URL(`${site}/api/v1/access_token`);
      const basic = Buffer.from(`${value.clientId}:${value.clientSecret}`).toString('base64');
      const token = await ask(url, {method: 'POST', body: new URLSearchParams({grant_type: 'client_credentials'}), headers: {authorization: `Basic ${basic}`}});
      requests++;
      const parsed = z.object({access_token: z.string()}).safeParse(token.body);
      if (!parsed.success) throw badShape('Reddit', url, 'an access token');
      api = value.oauthBase ?? 'https://oauth.reddit.com';
      headers = {authorization: `Bearer ${parsed.data.access_token}`};
    }
    const sort = value.sort ?? 'new';
    const statuses: SocialStatus[] = [];
    const since = request.since ? Date.parse(request.since) : Number.NEGATIVE_INFINITY;
    let after: string | undefined;
    let rateLimit: FetchOutcome['rateLimit'] = null;
    for (;;) {
      // Without a token the listings are the public `.json` documents; with one, oauth.reddit.com's paths.
      const url = new URL(`${api}/${path(value)}${value.user ? '' : `/${sort}`}${value.clientSecret ? '' : '.json'}`);
      url.searchParams.set('limit', String(PAGE));
      url.searchParams.set('raw_json', '1');
      if (value.user) url.searchParams.set('sort', sort);
      if (after) url.searchParams.set('after', after);
      const answer = await ask(url, {headers});
      requests++;
      rateLimit = answer.rateLimit ?? rateLimit;
      const parsed = listing.safeParse(answer.body);
      if (!parsed.success) throw badShape('Reddit', url, 'a listing');
      let older = false;
      for (const child of parsed.data.data.children) {
        if (child.kind !== 't3') continue;
        const item = post.safeParse(child.data);
        if (!item.success) continue;
        const status = normalise(item.data, site);
        statuses.push(status);
        if (Date.parse(status.createdAt) < since) older = true;
        if (statuses.length >= request.limit) break;
      }
      after = parsed.data.data.after ?? undefined;
      if (!after || parsed.data.data.children.length === 0 || statuses.length >= request.limit || (older && sort === 'new')) break;
    }
    return {statuses, timeOrdered: sort === 'new', rateLimit, requests};
  },
};

function path(value: RedditConfig): string {
  if (value.subreddit) return `r/${value.subreddit.replace(/^r\//, '')}`;
  if (value.user) return `user/${value.user.replace(/^u\//, '')}/submitted`;
  return value.multireddit!;
}

function label(value: RedditConfig): string {
  if (value.subreddit) return `r/${value.subreddit.replace(/^r\//, '')}`;
  if (value.user) return `u/${value.user.replace(/^u\//, '')}`;
  return value.multireddit!;
}

function normalise(item: z.infer<typeof post>, site: string): SocialStatus {
  const html = item.selftext_html ?? null;
  const text = html ? postText(html) : (item.selftext ?? '');
  const links = html ? htmlLinks(html) : [];
  const permalink = new URL(item.permalink, site).toString();
  if (item.url && !item.is_self && !links.includes(item.url)) links.unshift(item.url);
  const deleted = item.author === '[deleted]' || Boolean(item.removed_by_category) || text === '[removed]' || text === '[deleted]';
  return {
    key: item.name,
    url: permalink,
    author: {handle: item.author, name: null, url: item.author === '[deleted]' ? null : new URL(`/user/${item.author}`, site).toString()},
    title: item.title,
    text,
    html,
    createdAt: new Date(item.created_utc * 1000).toISOString(),
    editedAt: item.edited === false ? null : new Date(item.edited * 1000).toISOString(),
    // Reddit's score is upvotes minus downvotes: counted as likes (never below 0).
    engagement: {likes: Math.max(0, item.score), reposts: 0, replies: item.num_comments},
    repostedBy: item.crosspost_parent ? item.author : null,
    replyTo: null,
    replyToSelf: false,
    threadKey: item.crosspost_parent ?? item.name,
    links,
    tags: item.link_flair_text ? [item.link_flair_text.toLowerCase()] : [],
    deleted,
  };
}
