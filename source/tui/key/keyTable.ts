import {Command, commandDescription, keyLabel, lineLabel} from './keyBindings.js';

/** Where a key works: a pane (its PaneDefinition id), or `global` for the TUI's own keys. */
export type KeyScope = 'global' | 'processes' | 'incidents' | 'feeds' | 'proxy' | 'graphql' | 'chat';

/** One key of one view: what the command does there; `hint` also puts it in the view's key line. */
export interface KeyRow {
  command: Command;
  /** The help's words; the command's own description when absent. */
  description?: string;
  /** A few words for the key line at the foot of the pane (`r read/unread`). */
  hint?: string;
  /** The hint is in the status bar too. */
  bar?: boolean;
  /** Intended: in this view the key is this row's, not these commands' (they share a key). */
  overrides?: Command[];
}

/** A mode of a pane with its own keys (the feeds list, the reader); `heading` titles it in the help. */
export interface KeyView {
  scope: KeyScope;
  view: string;
  heading?: string;
  /** False: left out of the help overlay, where the same keys are in sight (its footer, the status bar). */
  inHelp?: false;
  rows: KeyRow[];
}

/**
 * Every key of every pane, in the order the help lists them. The help overlay, the key lines at
 * the foot of panes and the status bar hints are drawn from these rows; matching a key is
 * matchesCommand on the row's command.
 */
export const keyTable: KeyView[] = [
  {
    scope: 'processes',
    view: 'list',
    rows: [
      {command: Command.UP, description: 'previous process'},
      {command: Command.DOWN, description: 'next process'},
      {command: Command.OUTPUT_FOCUS, description: 'read the output: scroll, search, wrap (esc back to the list)', hint: 'read', bar: true},
      {command: Command.START, description: 'start a script (pick from a list)', hint: 'start', bar: true},
      {command: Command.STOP, description: 'stop the selected process', hint: 'stop', bar: true},
      {command: Command.RESTART, description: 'restart the selected process', hint: 'restart', bar: true},
      {command: Command.PAGE_UP, description: 'ten processes up'},
      {command: Command.PAGE_DOWN, description: 'ten processes down'},
      {command: Command.FILTER, description: 'filter by id or command', hint: 'filter', bar: true},
      {command: Command.BACK, description: 'clear the filter'},
    ],
  },
  {
    scope: 'processes',
    view: 'output',
    heading: 'Reading the output',
    rows: [
      {command: Command.UP, description: 'scroll a line up (stops following)', hint: 'scroll', bar: true},
      {command: Command.DOWN, description: 'scroll a line down', hint: 'scroll', bar: true},
      {command: Command.PAGE_UP, description: 'scroll a page up', hint: 'scroll', bar: true},
      {command: Command.PAGE_DOWN, description: 'scroll a page down', hint: 'scroll', bar: true},
      {command: Command.OUTPUT_TOP, hint: 'top', bar: true},
      {command: Command.OUTPUT_BOTTOM, hint: 'follow', bar: true},
      {command: Command.OUTPUT_WRAP, hint: 'wrap', bar: true},
      {command: Command.OUTPUT_SEARCH, hint: 'search', bar: true},
      {command: Command.OUTPUT_NEXT_MATCH, hint: 'older match', bar: true},
      {command: Command.OUTPUT_PREV_MATCH, hint: 'newer match', bar: true},
      {command: Command.BACK, description: 'clear the search, then back to the list', hint: 'list', bar: true},
    ],
  },
  {
    scope: 'incidents',
    view: 'list',
    rows: [
      {command: Command.UP, description: 'previous incident (in the detail: scroll up)'},
      {command: Command.DOWN, description: 'next incident (in the detail: scroll down)'},
      {command: Command.EXPAND, description: 'show the stack, the output around it, run and variants', hint: 'open', bar: true},
      {command: Command.INCIDENTS_EDIT, hint: 'editor', bar: true},
      {command: Command.INCIDENTS_SORT, hint: 'sort', bar: true},
      {command: Command.BACK, description: 'collapse, then clear the filter'},
      {command: Command.FILTER, description: 'filter by text', hint: 'filter', bar: true},
    ],
  },
  {
    scope: 'feeds',
    view: 'list',
    rows: [
      {command: Command.UP, description: 'previous feed or article'},
      {command: Command.DOWN, description: 'next feed or article'},
      {command: Command.PAGE_UP, description: 'ten up'},
      {command: Command.PAGE_DOWN, description: 'ten down'},
      {command: Command.EXPAND, description: 'open the feed’s articles, or the article (marks it read)', hint: 'open'},
      {command: Command.FEEDS_TOGGLE_READ, hint: 'read/unread'},
      {command: Command.FEEDS_GATEWAY, hint: 'gateway'},
      {command: Command.FEEDS_INGESTORS, hint: 'ingestors'},
      {command: Command.FEEDS_MARK_FEED_READ, hint: 'feed read'},
      {command: Command.FEEDS_SNOOZE, hint: 'snooze', overrides: [Command.ZOOM]},
      {command: Command.FEEDS_SAVE_TO_LIST, hint: 'save to list'},
      {command: Command.FEEDS_REFRESH, hint: 'refresh'},
      {command: Command.FEEDS_OPEN_LINK, hint: 'open link'},
      {command: Command.FEEDS_ADD, hint: 'add feed'},
      {command: Command.FEEDS_REMOVE, hint: 'remove feed'},
      {command: Command.FILTER, description: 'filter the feeds or the articles', hint: 'filter'},
      {command: Command.NEXT_PANE, description: 'feeds → articles → next pane (←/→ too)', hint: 'column'},
      {command: Command.BACK, description: 'clear the filter, then the message'},
    ],
  },
  {
    scope: 'feeds',
    view: 'reader',
    heading: 'Reading an article',
    rows: [
      {command: Command.UP, description: 'scroll the article up', hint: 'scroll'},
      {command: Command.DOWN, description: 'scroll the article down', hint: 'scroll'},
      {command: Command.PAGE_UP, description: 'a page up', hint: 'scroll'},
      {command: Command.PAGE_DOWN, description: 'a page down', hint: 'scroll'},
      {command: Command.FEEDS_PAGE_DOWN, hint: 'scroll'},
      {command: Command.HOME, description: 'the top of the article'},
      {command: Command.END, description: 'the end of the article'},
      {command: Command.FEEDS_TOGGLE_READ, description: 'mark it unread (or read again)', hint: 'unread'},
      {command: Command.FEEDS_SNOOZE, hint: 'snooze', overrides: [Command.ZOOM]},
      {command: Command.FEEDS_SAVE_TO_LIST, hint: 'save'},
      {command: Command.FEEDS_OPEN_LINK, hint: 'open link'},
      // In the key line only when the article has enclosures (FeedsPane chooses), as one short
      // `e/y/E enclosure`: the line is 99 columns without them and a 120-column terminal has 118.
      {command: Command.FEEDS_OPEN_ENCLOSURE, hint: 'enclosure'},
      {command: Command.FEEDS_COPY_ENCLOSURE, hint: 'enclosure'},
      {command: Command.FEEDS_NEXT_ENCLOSURE, hint: 'enclosure'},
      {command: Command.FEEDS_NEXT_UNREAD, hint: 'next unread'},
      {command: Command.FEEDS_CLOSE_ARTICLE, description: 'back to the list', hint: 'back', overrides: [Command.QUIT]},
    ],
  },
  {
    scope: 'feeds',
    view: 'gateway',
    heading: 'Gateway view (g)',
    rows: [
      {command: Command.UP, description: 'previous feed or channel', hint: 'select'},
      {command: Command.DOWN, description: 'next feed or channel', hint: 'select'},
      {command: Command.FEEDS_REFRESH, description: 'poll the selected feed’s origin now (needs REFRESH_TOKEN in the environment)', hint: 'refresh the feed (REFRESH_TOKEN)'},
      {command: Command.FEEDS_GATEWAY, description: 'back to the reader’s feeds', hint: 'back'},
      {command: Command.BACK, description: 'back to the reader’s feeds', hint: 'back'},
    ],
  },
  {
    scope: 'feeds',
    view: 'ingestors',
    heading: 'Ingestors view (i)',
    rows: [
      {command: Command.UP, description: 'previous ingestor (in a test: scroll up)', hint: 'select'},
      {command: Command.DOWN, description: 'next ingestor (in a test: scroll down)', hint: 'select'},
      {command: Command.FEEDS_TEST_INGESTOR, hint: 'test cycle (kept and dropped, with reasons)'},
      {command: Command.FEEDS_REFRESH, description: 'run the selected ingestor’s cycle now', hint: 'run now'},
      {command: Command.FEEDS_INGESTORS, description: 'back to the reader’s feeds', hint: 'back'},
      {command: Command.BACK, description: 'back to the reader’s feeds; from a test, back to the ingestors', hint: 'back'},
    ],
  },
  {
    scope: 'proxy',
    view: 'requests',
    rows: [
      {command: Command.UP, description: 'previous request (stops following)'},
      {command: Command.DOWN, description: 'next request (onto the newest: follows again)'},
      {command: Command.PAGE_UP, description: 'ten requests up'},
      {command: Command.PAGE_DOWN, description: 'ten requests down'},
      {command: Command.OUTPUT_TOP, description: 'oldest request held (stops following)'},
      {command: Command.OUTPUT_BOTTOM, description: 'newest request, follow new ones'},
      {command: Command.EXPAND, description: 'request and response headers and bodies (or the error, the log entry)', hint: 'detail', bar: true},
      {command: Command.PROXY_STATUS_CLASS, hint: 'status', bar: true},
      {command: Command.PROXY_ENTRY_TYPE, hint: 'type', bar: true},
      {command: Command.FILTER, description: 'filter by path, method, status or message', hint: 'filter', bar: true},
      {command: Command.PROXY_PAGES, hint: 'pages', bar: true},
      {command: Command.PROXY_EXEC, hint: 'exec', bar: true},
      {command: Command.START, description: 'start a proxy of .workbench.kdl (pick from a list)', hint: 'start', bar: true},
      {command: Command.STOP, description: 'stop the proxy shown', hint: 'stop', bar: true},
      {command: Command.PROXY_PREV, hint: 'proxy', bar: true},
      {command: Command.PROXY_NEXT, hint: 'proxy', bar: true},
      {command: Command.BACK, description: 'clear the message, then the filters'},
    ],
  },
  {
    scope: 'proxy',
    view: 'detail',
    heading: 'A request’s detail, an exec answer',
    rows: [
      {command: Command.UP, description: 'scroll up', hint: 'scroll', bar: true},
      {command: Command.DOWN, description: 'scroll down', hint: 'scroll', bar: true},
      {command: Command.PAGE_UP, description: 'ten rows up', hint: 'scroll', bar: true},
      {command: Command.PAGE_DOWN, description: 'ten rows down', hint: 'scroll', bar: true},
      {command: Command.PROXY_EXEC, hint: 'exec', bar: true},
      {command: Command.BACK, description: 'close the detail or the exec answer', hint: 'back', bar: true},
    ],
  },
  {
    scope: 'proxy',
    view: 'exec',
    heading: 'Typing code to exec',
    rows: [
      {command: Command.INPUT_ACCEPT, description: 'run it in every connected page', hint: 'run in the page', bar: true},
      {command: Command.INPUT_CANCEL, description: 'cancel', hint: 'cancel', bar: true},
    ],
  },
  {
    scope: 'graphql',
    view: 'browse',
    heading: 'Browsing the result',
    rows: [
      {command: Command.GQL_EDIT_QUERY, description: 'edit the query (i too)', hint: 'edit query', bar: true},
      {command: Command.GQL_EDIT_VARIABLES, hint: 'variables'},
      {command: Command.GQL_RUN, hint: 'run', bar: true},
      {command: Command.GQL_STOP, hint: 'stop a subscription'},
      {command: Command.GQL_HISTORY, hint: 'history', bar: true},
      {command: Command.GQL_CONVERSATIONS, hint: 'chat conversations'},
      {command: Command.UP, description: 'previous row of the result', hint: 'move'},
      {command: Command.DOWN, description: 'next row of the result', hint: 'move'},
      {command: Command.PAGE_UP, description: 'a page up the result'},
      {command: Command.PAGE_DOWN, description: 'a page down the result'},
      {command: Command.OUTPUT_TOP, description: 'first row of the result'},
      {command: Command.OUTPUT_BOTTOM, description: 'last row of the result'},
      {command: Command.GQL_TOGGLE, hint: 'open/close'},
      {command: Command.LEFT, description: 'close (or go to the parent)', hint: 'close/open'},
      {command: Command.RIGHT, description: 'open', hint: 'close/open'},
      {command: Command.GQL_CLOSE_ALL, hint: 'close all'},
      {command: Command.GQL_OPEN_ALL, hint: 'open all'},
      {command: Command.BACK, description: 'clear the message'},
    ],
  },
  {
    scope: 'graphql',
    view: 'edit',
    heading: 'Editing the query or the variables',
    rows: [
      {command: Command.GQL_RUN_EDITING, hint: 'run', bar: true},
      {command: Command.GQL_COMPLETE, hint: 'complete', overrides: [Command.NEXT_PANE], bar: true},
      {command: Command.GQL_OTHER_BOX, hint: 'query/variables', overrides: [Command.PREV_PANE]},
      {command: Command.GQL_HISTORY_OLDER, hint: 'history'},
      {command: Command.GQL_HISTORY_NEWER, hint: 'history'},
      {command: Command.EDIT_LINE_START},
      {command: Command.EDIT_LINE_END},
      {command: Command.EDIT_KILL_END},
      {command: Command.EDIT_KILL_START},
      {command: Command.BACK, description: 'stop editing (q, tab, 1-9 and ? work again)', hint: 'done (then q, tab, ? work again)', bar: true},
    ],
  },
  {
    scope: 'chat',
    view: 'type',
    heading: 'Typing (the box has the keys: letters and digits type)',
    rows: [
      {command: Command.CHAT_SEND, hint: 'send', bar: true},
      {command: Command.UP, description: 'older message from the history (as a shell)', hint: 'history'},
      {command: Command.DOWN, description: 'newer message from the history', hint: 'history'},
      {command: Command.BACK, description: 'to the conversation (its keys, and q, tab, ?, work)', hint: 'conversation', bar: true},
      {command: Command.PAGE_UP, description: 'scroll the conversation up', hint: 'scroll'},
      {command: Command.PAGE_DOWN, description: 'scroll the conversation down', hint: 'scroll'},
      {
        command: Command.CHAT_CANCEL,
        description: 'cancel the running turn (when none runs, esc goes to the conversation)',
        hint: 'cancel the turn',
        bar: true,
        overrides: [Command.BACK, Command.FORCE_QUIT],
      },
    ],
  },
  {
    scope: 'chat',
    view: 'browse',
    heading: 'Reading the conversation',
    rows: [
      {command: Command.CHAT_TYPE, hint: 'type', bar: true},
      {command: Command.UP, description: 'previous tool call', hint: 'select'},
      {command: Command.DOWN, description: 'next tool call', hint: 'select'},
      {command: Command.CHAT_TOGGLE, hint: 'open'},
      {command: Command.LEFT, description: 'close the tool call', hint: 'close'},
      {command: Command.PAGE_UP, description: 'scroll up', hint: 'scroll'},
      {command: Command.PAGE_DOWN, description: 'scroll down', hint: 'scroll'},
      {command: Command.OUTPUT_TOP, description: 'top of the conversation', hint: 'top'},
      {command: Command.OUTPUT_BOTTOM, description: 'end of the conversation (follows new text)', hint: 'end'},
      {command: Command.CHAT_COPY, hint: 'copy answer', bar: true},
      {command: Command.CHAT_ACP, hint: 'ACP agent', bar: true},
      {command: Command.CHAT_MODEL, hint: 'model'},
      {command: Command.CHAT_DATABASE, hint: 'database'},
      {command: Command.MOUSE, description: 'give the mouse to the terminal to select and copy text (M again takes it back)', hint: 'mouse (select text)'},
    ],
  },
  {
    scope: 'chat',
    view: 'acp',
    heading: 'Typing an ACP agent’s command',
    rows: [
      {command: Command.INPUT_ACCEPT, description: 'start the agent', hint: 'start it', bar: true},
      {command: Command.INPUT_CANCEL, description: 'back to the input box', hint: 'back', bar: true},
    ],
  },
  {
    scope: 'chat',
    view: 'permission',
    heading: 'A permission prompt',
    rows: [
      {command: Command.CHAT_ALLOW, hint: 'allow', bar: true},
      {command: Command.CHAT_ALWAYS, hint: 'always', bar: true},
      {command: Command.CHAT_DENY, hint: 'deny', bar: true},
    ],
  },
  {
    scope: 'global',
    view: 'filter',
    heading: 'In a filter or a search',
    rows: [
      {command: Command.INPUT_ACCEPT, description: 'keep it, back to the list', hint: 'keep', bar: true},
      {command: Command.INPUT_CANCEL, description: 'clear it, back to the list', hint: 'clear', bar: true},
    ],
  },
  {
    scope: 'global',
    view: 'picker',
    heading: 'In a list to pick from',
    rows: [
      {command: Command.UP, description: 'previous choice', hint: 'choose'},
      {command: Command.DOWN, description: 'next choice', hint: 'choose'},
      {command: Command.EXPAND, description: 'pick it', hint: 'pick', bar: true},
      {command: Command.PICKER_CLOSE, hint: 'cancel', bar: true, overrides: [Command.QUIT]},
    ],
  },
  {
    scope: 'global',
    view: 'prompt',
    heading: 'In a one-line prompt (add a feed, snooze, exec)',
    rows: [
      {command: Command.INPUT_ACCEPT, description: 'take what is typed', hint: 'take it', bar: true},
      {command: Command.INPUT_CANCEL, description: 'cancel, nothing done', hint: 'cancel', bar: true},
    ],
  },
  {
    scope: 'global',
    view: 'help',
    heading: 'In this help',
    // The overlay's footer names them.
    inHelp: false,
    rows: [
      {command: Command.UP, description: 'scroll up', hint: 'scroll', bar: true},
      {command: Command.DOWN, description: 'scroll down', hint: 'scroll', bar: true},
      {command: Command.PAGE_UP, description: 'a page up'},
      {command: Command.PAGE_DOWN, description: 'a page down'},
      {command: Command.HOME, description: 'the top'},
      {command: Command.END, description: 'the end'},
      {command: Command.HELP_CLOSE, hint: 'closes', bar: true, overrides: [Command.QUIT, Command.HELP]},
    ],
  },
  {
    scope: 'global',
    view: 'stopped',
    heading: 'While the daemon is stopped',
    // The status bar says `daemon stopped — press r to start` then.
    inHelp: false,
    rows: [{command: Command.START_DAEMON, hint: 'start the daemon', bar: true}],
  },
  {
    scope: 'global',
    view: 'everywhere',
    heading: 'Everywhere',
    rows: [
      {command: Command.NEXT_PANE, hint: 'next', bar: true},
      {command: Command.PREV_PANE},
      {command: Command.FOCUS_PANE_N},
      {command: Command.ZOOM},
      {command: Command.MOUSE},
      {command: Command.DASHBOARD},
      {command: Command.HELP, description: 'this help', hint: 'help', bar: true},
      {command: Command.QUIT, hint: 'quit', bar: true},
      {command: Command.FORCE_QUIT},
    ],
  },
];

/** The views of a scope, in table order. */
export function keyViews(scope: KeyScope): KeyView[] {
  return keyTable.filter((view) => view.scope === scope);
}

export function keyView(scope: KeyScope, view: string): KeyView {
  const found = keyTable.find((candidate) => candidate.scope === scope && candidate.view === view);
  if (!found) throw new Error(`no keys for ${scope}/${view}`);
  return found;
}

/** What a row's key does, as the help says it. */
export function rowDescription(row: KeyRow): string {
  return row.description ?? commandDescription(row.command);
}

/** A row's keys as the help shows them: every key, `↑/k`. */
export function rowLabel(row: KeyRow): string {
  return keyLabel(row.command);
}

const ARROW = /^[←↑→↓]$/;

// Arrows run together (`↑↓`), other keys take a slash (`pgup/pgdn`), a space between the two kinds.
function joinLabels(labels: string[]): string {
  return labels.reduce((joined, label, index) => {
    if (index === 0) return label;
    const arrows = [ARROW.test(labels[index - 1]!), ARROW.test(label)];
    return joined + (arrows[0] && arrows[1] ? '' : arrows[0] || arrows[1] ? ' ' : '/') + label;
  }, '');
}

/** `label hint` for each hinted row; rows next to each other with one hint share it (`↑↓ scroll`). */
function hints(rows: KeyRow[]): string[] {
  const groups: Array<{hint: string; labels: string[]}> = [];
  for (const row of rows) {
    if (row.hint === undefined) continue;
    const last = groups.at(-1);
    if (last && last.hint === row.hint) last.labels.push(lineLabel(row.command));
    else groups.push({hint: row.hint, labels: [lineLabel(row.command)]});
  }
  return groups.map((group) => `${joinLabels(group.labels)} ${group.hint}`);
}

/** Which rows of a view to show: `only` these commands, or all `without` these; `hints` says what a key does in this one place (a picker's enter *starts*). */
export interface RowChoice {
  only?: Command[];
  without?: Command[];
  hints?: Partial<Record<Command, string>>;
}

function chosen(rows: KeyRow[], choice: RowChoice): KeyRow[] {
  return rows
    .filter((row) => (choice.only ? choice.only.includes(row.command) : !choice.without?.includes(row.command)))
    .map((row) => (choice.hints?.[row.command] === undefined ? row : {...row, hint: choice.hints[row.command]}));
}

/** The key line at the foot of a pane in this view, e.g. `enter open · r read/unread · …`. */
export function keyLine(scope: KeyScope, view: string, choice: RowChoice = {}): string {
  return hints(chosen(keyView(scope, view).rows, choice)).join(' · ');
}

/** The status bar's hints for a view: its rows marked `bar`. */
export function barHints(scope: KeyScope, view: string, choice: RowChoice = {}): string[] {
  return hints(chosen(keyView(scope, view).rows, choice).filter((row) => row.bar));
}
