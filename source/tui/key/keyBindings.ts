/**
 * Everything a key can do in the TUI, namespaced by where it applies; panes and overlays match
 * commands, never raw keys. Which pane and view a command serves, and what it does there, is
 * keyTable.ts: the help, the key lines and the status bar are drawn from it.
 */
export enum Command {
  QUIT = 'global.quit',
  FORCE_QUIT = 'global.forceQuit',
  HELP = 'global.help',
  NEXT_PANE = 'global.nextPane',
  PREV_PANE = 'global.prevPane',
  FOCUS_PANE_N = 'global.focusPaneN',
  ZOOM = 'global.zoom',
  MOUSE = 'global.mouse',
  DASHBOARD = 'global.dashboard',
  START_DAEMON = 'global.startDaemon',
  HELP_CLOSE = 'help.close',
  UP = 'list.up',
  DOWN = 'list.down',
  LEFT = 'list.left',
  RIGHT = 'list.right',
  PAGE_UP = 'list.pageUp',
  PAGE_DOWN = 'list.pageDown',
  HOME = 'list.home',
  END = 'list.end',
  FILTER = 'list.filter',
  EXPAND = 'list.expand',
  BACK = 'list.back',
  INPUT_ACCEPT = 'input.accept',
  INPUT_CANCEL = 'input.cancel',
  PICKER_CLOSE = 'picker.close',
  START = 'process.start',
  STOP = 'process.stop',
  RESTART = 'process.restart',
  OUTPUT_FOCUS = 'output.focus',
  OUTPUT_TOP = 'output.top',
  OUTPUT_BOTTOM = 'output.bottom',
  OUTPUT_WRAP = 'output.wrap',
  OUTPUT_SEARCH = 'output.search',
  OUTPUT_NEXT_MATCH = 'output.nextMatch',
  OUTPUT_PREV_MATCH = 'output.prevMatch',
  INCIDENTS_EDIT = 'incidents.edit',
  INCIDENTS_SORT = 'incidents.sort',
  PROXY_STATUS_CLASS = 'proxy.statusClass',
  PROXY_ENTRY_TYPE = 'proxy.entryType',
  PROXY_PAGES = 'proxy.pages',
  PROXY_EXEC = 'proxy.exec',
  PROXY_PREV = 'proxy.prevProxy',
  PROXY_NEXT = 'proxy.nextProxy',
  CHAT_SEND = 'chat.send',
  CHAT_CANCEL = 'chat.cancel',
  CHAT_TYPE = 'chat.type',
  CHAT_TOGGLE = 'chat.toggle',
  CHAT_COPY = 'chat.copy',
  CHAT_ACP = 'chat.acp',
  CHAT_MODEL = 'chat.model',
  CHAT_DATABASE = 'chat.database',
  CHAT_ALLOW = 'chat.allow',
  CHAT_ALWAYS = 'chat.always',
  CHAT_DENY = 'chat.deny',
  FEEDS_TOGGLE_READ = 'feeds.toggleRead',
  FEEDS_MARK_FEED_READ = 'feeds.markFeedRead',
  FEEDS_SNOOZE = 'feeds.snooze',
  FEEDS_SAVE_TO_LIST = 'feeds.saveToList',
  FEEDS_REFRESH = 'feeds.refresh',
  FEEDS_OPEN_LINK = 'feeds.openLink',
  FEEDS_OPEN_ENCLOSURE = 'feeds.openEnclosure',
  FEEDS_COPY_ENCLOSURE = 'feeds.copyEnclosure',
  FEEDS_NEXT_ENCLOSURE = 'feeds.nextEnclosure',
  FEEDS_ADD = 'feeds.add',
  FEEDS_REMOVE = 'feeds.remove',
  FEEDS_NEXT_UNREAD = 'feeds.nextUnread',
  FEEDS_GATEWAY = 'feeds.gateway',
  FEEDS_INGESTORS = 'feeds.ingestors',
  FEEDS_TEST_INGESTOR = 'feeds.testIngestor',
  FEEDS_PAGE_DOWN = 'feeds.pageDown',
  FEEDS_CLOSE_ARTICLE = 'feeds.closeArticle',
  GQL_RUN = 'graphql.run',
  GQL_RUN_EDITING = 'graphql.runWhileEditing',
  GQL_EDIT_QUERY = 'graphql.editQuery',
  GQL_EDIT_VARIABLES = 'graphql.editVariables',
  GQL_HISTORY = 'graphql.history',
  GQL_STOP = 'graphql.stop',
  GQL_CONVERSATIONS = 'graphql.conversations',
  GQL_OPEN_ALL = 'graphql.openAll',
  GQL_CLOSE_ALL = 'graphql.closeAll',
  GQL_TOGGLE = 'graphql.toggle',
  GQL_COMPLETE = 'graphql.complete',
  GQL_OTHER_BOX = 'graphql.otherBox',
  GQL_HISTORY_OLDER = 'graphql.historyOlder',
  GQL_HISTORY_NEWER = 'graphql.historyNewer',
  EDIT_LINE_START = 'edit.lineStart',
  EDIT_LINE_END = 'edit.lineEnd',
  EDIT_KILL_END = 'edit.killToEnd',
  EDIT_KILL_START = 'edit.killToStart',
}

/** One key as the app sees it: the printable text, or the name of a special key. */
export interface Keypress {
  input: string;
  name?: 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace' | 'delete';
  ctrl: boolean;
  shift: boolean;
  meta: boolean;
  /** A bracketed paste: `input` holds the whole pasted text. */
  paste?: boolean;
  /** An arrow made from a mouse-wheel notch. */
  wheel?: boolean;
}

/** A key sequence bound to a command; `input` matches printable text, `name` a special key. */
export interface KeyBinding {
  input?: string;
  name?: Keypress['name'];
  ctrl?: boolean;
  shift?: boolean;
  /** Shown in the help overlay and the status bar. */
  label: string;
  /** A second key for the same thing (k for ↑): in the help, left out of key lines. */
  alias?: boolean;
}

/** A command's keys and what it does, side by side. */
export interface CommandBinding {
  description: string;
  keys: KeyBinding[];
}

export type KeyBindingMap = Record<Command, CommandBinding>;

export const defaultKeyBindings: KeyBindingMap = {
  [Command.QUIT]: {description: 'quit (processes keep running in the daemon)', keys: [{input: 'q', label: 'q'}]},
  [Command.FORCE_QUIT]: {description: 'quit', keys: [{input: 'c', ctrl: true, label: 'ctrl-c'}]},
  [Command.HELP]: {description: 'this help', keys: [{input: '?', label: '?'}]},
  [Command.NEXT_PANE]: {description: 'next pane', keys: [{name: 'tab', shift: false, label: 'tab'}]},
  [Command.PREV_PANE]: {description: 'previous pane', keys: [{name: 'tab', shift: true, label: 'shift-tab'}]},
  // Digits are matched by focusPaneNumber(); the binding only labels them.
  [Command.FOCUS_PANE_N]: {description: 'go to pane N', keys: [{label: '1-9'}]},
  // `+` zooms everywhere; `z` only where the pane has no `z` of its own (Feeds: snooze).
  [Command.ZOOM]: {
    description: 'zoom the pane to full screen and back (z too where the pane has no z of its own)',
    keys: [
      {input: '+', label: '+'},
      {input: 'z', label: 'z', alias: true},
    ],
  },
  [Command.MOUSE]: {description: 'mouse capture on/off (off: select text with the mouse)', keys: [{input: 'M', label: 'M'}]},
  [Command.DASHBOARD]: {description: 'live charts of the servers and processes (workbench dashboard); q comes back here', keys: [{input: 'D', label: 'D'}]},
  [Command.UP]: {
    description: 'up',
    keys: [
      {name: 'up', label: '↑'},
      {input: 'k', label: 'k', alias: true},
    ],
  },
  [Command.DOWN]: {
    description: 'down',
    keys: [
      {name: 'down', label: '↓'},
      {input: 'j', label: 'j', alias: true},
    ],
  },
  [Command.PAGE_UP]: {description: 'page up', keys: [{name: 'pageup', label: 'pgup'}]},
  [Command.PAGE_DOWN]: {description: 'page down', keys: [{name: 'pagedown', label: 'pgdn'}]},
  [Command.HOME]: {description: 'first', keys: [{name: 'home', label: 'home'}]},
  [Command.END]: {description: 'last', keys: [{name: 'end', label: 'end'}]},
  [Command.FILTER]: {description: 'filter', keys: [{input: '/', label: '/'}]},
  [Command.EXPAND]: {description: 'open', keys: [{name: 'return', label: 'enter'}]},
  [Command.BACK]: {description: 'back', keys: [{name: 'escape', label: 'esc'}]},
  [Command.START]: {description: 'start a script (pick from a list)', keys: [{input: 's', label: 's'}]},
  [Command.STOP]: {description: 'stop the selected process', keys: [{input: 'x', label: 'x'}]},
  [Command.RESTART]: {description: 'restart the selected process', keys: [{input: 'r', label: 'r'}]},
  [Command.OUTPUT_FOCUS]: {description: 'read the output: scroll, search, wrap', keys: [{name: 'return', label: 'enter'}]},
  [Command.OUTPUT_TOP]: {
    description: 'oldest output (stops following)',
    keys: [
      {input: 'g', label: 'g'},
      {name: 'home', label: 'home', alias: true},
    ],
  },
  [Command.OUTPUT_BOTTOM]: {
    description: 'newest output, follow it',
    keys: [
      {input: 'G', label: 'G'},
      {name: 'end', label: 'end', alias: true},
    ],
  },
  [Command.OUTPUT_WRAP]: {description: 'wrap long lines on/off', keys: [{input: 'w', label: 'w'}]},
  [Command.OUTPUT_SEARCH]: {description: 'search the output', keys: [{input: '/', label: '/'}]},
  [Command.OUTPUT_NEXT_MATCH]: {description: 'next match (older)', keys: [{input: 'n', label: 'n'}]},
  [Command.OUTPUT_PREV_MATCH]: {description: 'previous match (newer)', keys: [{input: 'N', label: 'N'}]},
  [Command.START_DAEMON]: {description: "start the daemon again (and the project's autostart scripts)", keys: [{input: 'r', label: 'r'}]},
  [Command.HELP_CLOSE]: {
    description: 'close the help',
    keys: [
      {name: 'escape', label: 'esc'},
      {input: '?', label: '?', alias: true},
      {input: 'q', label: 'q', alias: true},
    ],
  },
  [Command.LEFT]: {description: 'left', keys: [{name: 'left', label: '←'}]},
  [Command.RIGHT]: {description: 'right', keys: [{name: 'right', label: '→'}]},
  [Command.INPUT_ACCEPT]: {description: 'take what is typed', keys: [{name: 'return', label: 'enter'}]},
  [Command.INPUT_CANCEL]: {description: 'clear it and close', keys: [{name: 'escape', label: 'esc'}]},
  [Command.PICKER_CLOSE]: {
    description: 'close the list, nothing picked',
    keys: [
      {name: 'escape', label: 'esc'},
      {input: 'q', label: 'q'},
    ],
  },
  [Command.INCIDENTS_EDIT]: {description: 'open the location in $EDITOR (file:line)', keys: [{input: 'e', label: 'e'}]},
  [Command.INCIDENTS_SORT]: {description: 'sort: errors first, newest, count, source', keys: [{input: 'o', label: 'o'}]},
  [Command.PROXY_STATUS_CLASS]: {description: 'status filter: all, 2xx, 3xx, 4xx, 5xx, failed (no answer), every error', keys: [{input: 'f', label: 'f'}]},
  [Command.PROXY_ENTRY_TYPE]: {description: 'type filter: all, http, error, custom, diagnostic, page', keys: [{input: 't', label: 't'}]},
  [Command.PROXY_PAGES]: {description: 'the browser pages on this proxy: url, title, errors since load, last interaction', keys: [{input: 'p', label: 'p'}]},
  [Command.PROXY_EXEC]: {description: 'run JavaScript in the connected pages; the result as JSON', keys: [{input: 'e', label: 'e'}]},
  [Command.PROXY_PREV]: {description: 'previous proxy', keys: [{input: '[', label: '['}]},
  [Command.PROXY_NEXT]: {description: 'next proxy', keys: [{input: ']', label: ']'}]},
  [Command.CHAT_SEND]: {description: 'send the message', keys: [{name: 'return', shift: false, label: 'enter'}]},
  [Command.CHAT_CANCEL]: {
    description: 'cancel the running turn',
    keys: [
      {name: 'escape', label: 'esc'},
      {input: 'c', ctrl: true, label: 'ctrl-c'},
    ],
  },
  [Command.CHAT_TYPE]: {description: 'back to the input box', keys: [{input: 'i', label: 'i'}]},
  [Command.CHAT_TOGGLE]: {
    description: 'open the tool call (the diff, the output), or close it',
    keys: [
      {name: 'return', label: 'enter'},
      {name: 'right', label: '→'},
    ],
  },
  [Command.CHAT_COPY]: {description: 'copy the last answer to the clipboard (OSC 52: works over ssh and in tmux)', keys: [{input: 'y', label: 'y'}]},
  [Command.CHAT_ACP]: {description: 'talk to an ACP agent: asks for its command (the last one is remembered)', keys: [{input: 'a', label: 'a'}]},
  [Command.CHAT_MODEL]: {description: 'back to the model endpoint', keys: [{input: 'm', label: 'm'}]},
  [Command.CHAT_DATABASE]: {
    description: "talk to the served database (the GraphQL pane's service): its chat connectors are the tools; a proposed plan asks before it runs",
    keys: [{input: 'd', label: 'd'}],
  },
  [Command.CHAT_ALLOW]: {description: 'allow once', keys: [{input: 'y', label: 'y'}]},
  [Command.CHAT_ALWAYS]: {description: 'allow always (this session)', keys: [{input: 'a', label: 'a'}]},
  [Command.CHAT_DENY]: {
    description: 'deny',
    keys: [
      {input: 'n', label: 'n'},
      {name: 'escape', label: 'esc'},
    ],
  },
  [Command.FEEDS_TOGGLE_READ]: {description: 'toggle read/unread', keys: [{input: 'r', label: 'r'}]},
  [Command.FEEDS_MARK_FEED_READ]: {description: 'mark the whole feed read (on All articles: every feed, asks first)', keys: [{input: 'm', label: 'm'}]},
  [Command.FEEDS_SNOOZE]: {description: 'snooze the article (enter alone: tomorrow 08:00)', keys: [{input: 'z', label: 'z'}]},
  [Command.FEEDS_SAVE_TO_LIST]: {description: 'save the article to a list', keys: [{input: 'l', label: 'l'}]},
  [Command.FEEDS_REFRESH]: {description: 'refresh the selected feed now', keys: [{input: 'R', label: 'R'}]},
  [Command.FEEDS_OPEN_LINK]: {description: 'open the article link in the browser ($BROWSER, else xdg-open; shown when neither runs)', keys: [{input: 'o', label: 'o'}]},
  [Command.FEEDS_OPEN_ENCLOSURE]: {
    description: 'open the chosen enclosure (podcast audio, video) in the browser, as o opens the link',
    keys: [{input: 'e', label: 'e'}],
  },
  [Command.FEEDS_COPY_ENCLOSURE]: {
    description: 'copy the chosen enclosure’s URL to the clipboard (OSC 52: works over ssh and in tmux)',
    keys: [{input: 'y', label: 'y'}],
  },
  [Command.FEEDS_NEXT_ENCLOSURE]: {description: 'choose the next enclosure (when the article has several)', keys: [{input: 'E', label: 'E'}]},
  [Command.FEEDS_ADD]: {description: 'add a feed: its URL, or a page that links feeds', keys: [{input: 'a', label: 'a'}]},
  [Command.FEEDS_REMOVE]: {description: 'remove the selected feed (asks first)', keys: [{input: 'd', label: 'd'}]},
  [Command.FEEDS_NEXT_UNREAD]: {description: 'next unread article', keys: [{input: 'n', label: 'n'}]},
  [Command.FEEDS_GATEWAY]: {description: 'the gateway: its proxied feeds (stale ones marked !) and channels; g or esc come back', keys: [{input: 'g', label: 'g'}]},
  [Command.FEEDS_INGESTORS]: {description: 'the ingestors: social networks into feeds, their status and pending digests; i or esc come back', keys: [{input: 'i', label: 'i'}]},
  [Command.FEEDS_TEST_INGESTOR]: {
    description: 'run a test cycle: kept and dropped statuses with their scores and the reasons behind them (nothing is stored)',
    keys: [{input: 't', label: 't'}],
  },
  [Command.FEEDS_PAGE_DOWN]: {description: 'a page down', keys: [{input: ' ', label: 'space'}]},
  [Command.FEEDS_CLOSE_ARTICLE]: {
    description: 'close the article',
    keys: [
      {name: 'escape', label: 'esc'},
      {input: 'q', label: 'q'},
    ],
  },
  [Command.GQL_RUN]: {
    description: 'run the query (through a running serve graphql, else in-process)',
    keys: [
      {input: 'r', label: 'r'},
      {input: 'r', ctrl: true, label: 'ctrl-r'},
    ],
  },
  [Command.GQL_RUN_EDITING]: {description: 'run the query', keys: [{input: 'r', ctrl: true, label: 'ctrl-r'}]},
  [Command.GQL_EDIT_QUERY]: {
    description: 'edit the query',
    keys: [
      {input: 'e', label: 'e'},
      {input: 'i', label: 'i', alias: true},
    ],
  },
  [Command.GQL_EDIT_VARIABLES]: {description: 'edit the variables (a JSON object, checked before the query runs)', keys: [{input: 'v', label: 'v'}]},
  [Command.GQL_HISTORY]: {description: 'pick a query from the history (WORKBENCH_HOME/gql-history.json)', keys: [{input: 'h', label: 'h'}]},
  [Command.GQL_STOP]: {
    description: 'stop the running subscription (a `subscription { <t>Changed … }` shows each change as it commits, newest first)',
    keys: [{input: 's', label: 's'}],
  },
  [Command.GQL_CONVERSATIONS]: {
    description: "the database's chat conversations (chat-conversations / chat-messages tables), each message as `time role: text`",
    keys: [{input: 't', label: 't'}],
  },
  [Command.GQL_OPEN_ALL]: {description: 'open everything', keys: [{input: 'o', label: 'o'}]},
  [Command.GQL_CLOSE_ALL]: {description: 'close everything', keys: [{input: 'c', label: 'c'}]},
  [Command.GQL_TOGGLE]: {
    description: 'open or close the object or list',
    keys: [
      {name: 'return', label: 'enter'},
      {input: ' ', label: 'space'},
    ],
  },
  [Command.GQL_COMPLETE]: {
    description: 'complete the field name at the cursor from the schema (↑↓ choose, tab/enter take, esc close)',
    keys: [{name: 'tab', shift: false, label: 'tab'}],
  },
  [Command.GQL_OTHER_BOX]: {description: 'the other box: query ↔ variables', keys: [{name: 'tab', shift: true, label: 'shift-tab'}]},
  [Command.GQL_HISTORY_OLDER]: {description: 'older query from the history', keys: [{input: 'p', ctrl: true, label: 'ctrl-p'}]},
  [Command.GQL_HISTORY_NEWER]: {description: 'newer query from the history', keys: [{input: 'n', ctrl: true, label: 'ctrl-n'}]},
  [Command.EDIT_LINE_START]: {description: 'start of the line', keys: [{input: 'a', ctrl: true, label: 'ctrl-a'}]},
  [Command.EDIT_LINE_END]: {description: 'end of the line', keys: [{input: 'e', ctrl: true, label: 'ctrl-e'}]},
  [Command.EDIT_KILL_END]: {description: 'delete to the end of the line', keys: [{input: 'k', ctrl: true, label: 'ctrl-k'}]},
  [Command.EDIT_KILL_START]: {description: 'delete to the start of the line', keys: [{input: 'u', ctrl: true, label: 'ctrl-u'}]},
};

/** What a command does, as the bindings describe it. */
export function commandDescription(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].description;
}

function bindingMatches(binding: KeyBinding, press: Keypress): boolean {
  if (binding.name !== undefined) {
    if (press.name !== binding.name) return false;
    if (binding.shift !== undefined && binding.shift !== press.shift) return false;
    return Boolean(binding.ctrl) === press.ctrl;
  }
  if (binding.input === undefined || press.name !== undefined || press.paste) return false;
  if (Boolean(binding.ctrl) !== press.ctrl) return false;
  return press.input === binding.input && !press.meta;
}

export function matchesCommand(command: Command, press: Keypress, bindings: KeyBindingMap = defaultKeyBindings): boolean {
  return bindings[command].keys.some((binding) => bindingMatches(binding, press));
}

/** How far a list or a scrolled view moves for a key: ±1 for ↑/↓, ±10 for PgUp/PgDn, 0 for any other key. */
export function moveStep(press: Keypress, bindings: KeyBindingMap = defaultKeyBindings): number {
  if (matchesCommand(Command.UP, press, bindings)) return -1;
  if (matchesCommand(Command.DOWN, press, bindings)) return 1;
  if (matchesCommand(Command.PAGE_UP, press, bindings)) return -10;
  if (matchesCommand(Command.PAGE_DOWN, press, bindings)) return 10;
  return 0;
}

/** The pane number 1-9 a digit key asks for, or undefined. */
export function focusPaneNumber(press: Keypress): number | undefined {
  if (press.ctrl || press.meta || press.paste || press.name !== undefined) return undefined;
  return /^[1-9]$/.test(press.input) ? Number(press.input) : undefined;
}

/** Labels of a command's keys, e.g. `↑/k`. */
export function keyLabel(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].keys.map((binding) => binding.label).join('/');
}

/** A command's keys as a key line shows them: `↑` for ↑/k, aliases left out. */
export function lineLabel(command: Command, bindings: KeyBindingMap = defaultKeyBindings): string {
  return bindings[command].keys
    .filter((binding) => !binding.alias)
    .map((binding) => binding.label)
    .join('/');
}

/** Whether two bindings are reached by the same keypress. */
export function sameKey(a: KeyBinding, b: KeyBinding): boolean {
  if (a.name !== undefined || b.name !== undefined) {
    return a.name === b.name && Boolean(a.ctrl) === Boolean(b.ctrl) && (a.shift === undefined || b.shift === undefined || a.shift === b.shift);
  }
  return a.input !== undefined && a.input === b.input && Boolean(a.ctrl) === Boolean(b.ctrl);
}
