import {z} from 'zod';
import type {FetchOutcome, FetchRequest, NetworkSource, SocialStatus} from '../types.js';
import {baseUrl, exactlyOne, followName, secret, wireDate} from './config-fields.js';
import {badShape, requestJson} from './http-json.js';
import {htmlLinks, postText} from './status-text.js';

// kind_1: Mastodon's REST API (docs.joinmastodon.org/methods/timelines, /methods/accounts).

const config = z
  .object({
    instance: baseUrl,
    account: followName(/^@?[\w.-]+(@[\w.-]+)?$/, 'must be an account name like Gargron or Gargron@mastodon.social').optional(),
    hashtag: followName(/^#?[\p{L}\p{N}_]+$/u, 'must be a hashtag like rust (letters, digits, _)').optional(),
    list: followName(/^\d+$/, 'must be a list id (digits)').optional(),
    local: z.boolean().optional(),
    accessToken: secret.optional(),
  })
  .strict()
  .superRefine(exactlyOne(['account', 'hashtag', 'list']))
  .superRefine((value, context) => {
    if (value.list !== undefined && value.accessToken === undefined) context.addIssue({code: 'custom', message: 'a list is private: give accessToken too', path: ['accessToken']});
  });

export type MastodonConfig = z.infer<typeof config>;

const PAGE = 40;

const account = z.object({id: z.string(), acct: z.string(), display_name: z.string().nullish(), url: z.string().nullish()});
const statusFields = {
  id: z.string(),
  uri: z.string(),
  url: z.string().nullish(),
  created_at: wireDate,
  edited_at: wireDate.nullish().catch(null),
  content: z.string(),
  spoiler_text: z.string().nullish(),
  in_reply_to_id: z.string().nullish(),
  in_reply_to_account_id: z.string().nullish(),
  favourites_count: z.number().nonnegative().catch(0),
  reblogs_count: z.number().nonnegative().catch(0),
  replies_count: z.number().nonnegative().catch(0),
  tags: z.array(z.object({name: z.string()})).catch([]),
  card: z.object({url: z.string()}).nullish().catch(null),
  account,
};
const original = z.object(statusFields);
const entry = z.object({...statusFields, reblog: original.nullish()});
type Entry = z.infer<typeof entry>;

export const mastodon: NetworkSource<MastodonConfig> = {
  kind: 'kind_1',
  network: 'mastodon',
  configSchema: config,
  credentialFields: ['accessToken'],
  describe(value) {
    const host = new URL(value.instance).host;
    if (value.account) return {title: `Mastodon @${value.account.replace(/^@/, '')} on ${host}`, siteUrl: `${value.instance}/@${value.account.replace(/^@/, '')}`};
    if (value.hashtag) return {title: `Mastodon #${value.hashtag.replace(/^#/, '')} on ${host}`, siteUrl: `${value.instance}/tags/${value.hashtag.replace(/^#/, '')}`};
    return {title: `Mastodon list ${value.list} on ${host}`, siteUrl: `${value.instance}/lists/${value.list}`};
  },
  async fetch(value, request) {
    const call = (path: string, query: Record<string, string> = {}) => {
      const url = new URL(`${value.instance}${path}`);
      for (const [name, text] of Object.entries(query)) url.searchParams.set(name, text);
      return {
        url,
        answer: requestJson(url, {
          headers: value.accessToken ? {authorization: `Bearer ${value.accessToken}`} : {},
          credentialField: 'accessToken',
          network: 'Mastodon',
          signal: request.signal,
          networkStack: request.network,
          timeoutMs: request.timeoutMs,
          now: new Date(),
        }),
      };
    };
    let requests = 0;
    let path: string;
    const query: Record<string, string> = {};
    if (value.account) {
      const lookup = call('/api/v1/accounts/lookup', {acct: value.account.replace(/^@/, '')});
      requests++;
      const found = account.safeParse((await lookup.answer).body);
      if (!found.success) throw badShape('Mastodon', lookup.url, 'an account');
      path = `/api/v1/accounts/${encodeURIComponent(found.data.id)}/statuses`;
    } else if (value.hashtag) {
      path = `/api/v1/timelines/tag/${encodeURIComponent(value.hashtag.replace(/^#/, ''))}`;
      if (value.local) query.local = 'true';
    } else path = `/api/v1/timelines/list/${encodeURIComponent(value.list!)}`;
    return pages(request, async (maxId) => {
      const page = call(path, {...query, limit: String(PAGE), ...(maxId ? {max_id: maxId} : {})});
      requests++;
      const answer = await page.answer;
      if (!Array.isArray(answer.body)) throw badShape('Mastodon', page.url, 'a list of statuses');
      const entries = answer.body.flatMap((item) => {
        const parsed = entry.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
      return {entries, rateLimit: answer.rateLimit, raw: answer.body.length, requests};
    });
  },
};

/** Pages back through max_id until `limit` statuses, a status older than `since`, or an empty page. */
async function pages(
  request: FetchRequest,
  page: (maxId: string | undefined) => Promise<{entries: Entry[]; rateLimit: FetchOutcome['rateLimit']; raw: number; requests: number}>,
): Promise<FetchOutcome> {
  const statuses: SocialStatus[] = [];
  const keyOfId = new Map<string, SocialStatus>();
  const since = request.since ? Date.parse(request.since) : Number.NEGATIVE_INFINITY;
  let maxId: string | undefined;
  let rateLimit: FetchOutcome['rateLimit'] = null;
  let requests: number;
  for (;;) {
    const answer = await page(maxId);
    rateLimit = answer.rateLimit ?? rateLimit;
    requests = answer.requests;
    let older = false;
    for (const item of answer.entries) {
      const status = normalise(item, keyOfId);
      statuses.push(status);
      if (Date.parse(item.created_at) < since) older = true;
      if (statuses.length >= request.limit) break;
    }
    const last = answer.entries.at(-1);
    if (answer.raw === 0 || !last || older || statuses.length >= request.limit) break;
    maxId = last.id;
  }
  return {statuses, timeOrdered: true, rateLimit, requests};
}

function normalise(item: Entry, keyOfId: Map<string, SocialStatus>): SocialStatus {
  const post = item.reblog ?? item;
  const html = post.spoiler_text ? `<p>${escapeText(post.spoiler_text)}</p>${post.content}` : post.content;
  const text = postText(html);
  const parent = post.in_reply_to_id ? keyOfId.get(post.in_reply_to_id) : undefined;
  const replyTo = post.in_reply_to_id ? (parent?.key ?? `mastodon-id:${post.in_reply_to_id}`) : null;
  const links = htmlLinks(post.content).filter((link) => !/\/tags\/|\/@[\w.-]+\/?$/.test(link));
  if (post.card?.url && !links.includes(post.card.url)) links.push(post.card.url);
  const status: SocialStatus = {
    key: post.uri,
    url: post.url ?? post.uri,
    author: {handle: post.account.acct, name: post.account.display_name || null, url: post.account.url ?? null},
    title: null,
    text,
    html,
    createdAt: new Date(post.created_at).toISOString(),
    editedAt: post.edited_at ? new Date(post.edited_at).toISOString() : null,
    engagement: {likes: post.favourites_count, reposts: post.reblogs_count, replies: post.replies_count},
    repostedBy: item.reblog ? item.account.acct : null,
    replyTo,
    replyToSelf: post.in_reply_to_account_id != null && post.in_reply_to_account_id === post.account.id,
    threadKey: parent?.threadKey ?? replyTo ?? post.uri,
    links,
    tags: post.tags.map((tag) => tag.name.toLowerCase()),
    deleted: false,
  };
  keyOfId.set(post.id, status);
  return status;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
