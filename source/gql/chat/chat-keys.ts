/**
 * The chat schema and chat connector keys (spec 3, "Metadata properties: chat schema" and "chat
 * connectors"). All are table keys; anything else starting with `chat-` fails at model load.
 */
export const CHAT_KEY = {
  conversations: 'chat-conversations',
  title: 'chat-title',
  messages: 'chat-messages',
  role: 'chat-role',
  content: 'chat-content',
  conversationFk: 'chat-conversation-fk',
  createdAt: 'chat-created-at',
  connector: 'chat-connector',
  mediaColumn: 'chat-media-column',
  mediaVision: 'chat-media-vision',
  mediaCaption: 'chat-media-caption',
  planOperations: 'chat-plan-operations',
  toolDescription: 'chat-tool-description',
} as const;

export const CHAT_KEYS: ReadonlySet<string> = new Set(Object.values(CHAT_KEY));

/** The messages table's full mapping: every one is required once `chat-messages` is set. */
export const MESSAGE_MAPPING = [CHAT_KEY.role, CHAT_KEY.content, CHAT_KEY.conversationFk, CHAT_KEY.createdAt] as const;

export const CONNECTOR_TYPES = ['explore', 'media', 'plan'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];

export const PLAN_OPERATIONS = ['insert', 'update', 'delete'] as const;
export type PlanOperation = (typeof PLAN_OPERATIONS)[number];
