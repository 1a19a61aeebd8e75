import React, {useEffect, useMemo, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {GraphQLSchema} from 'graphql';
import type {GqlExecuteResult} from '../../gql/types.js';
import {describeError} from '../../core/errors.js';
import {formatDate} from '../../text/table.js';
import {toTerminalLine} from '../../text/terminal-safe.js';
import {usePorts} from '../contexts/PortsContext.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useStatusHints} from '../hooks/useStatusHints.js';
import {useTransientMessage} from '../hooks/useTransientMessage.js';
import {Command, matchesCommand, type Keypress} from '../key/keyBindings.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import {ChoicePicker} from '../components/ChoicePicker.js';
import {MessageLine, type PaneMessage} from '../components/MessageLine.js';
import {editorActionForKey, editorFromText, editorReducer, editorText, type EditorAction, type EditorState} from './graphql/editorModel.js';
import type {Completion} from './graphql/completion.js';
import {containerPaths, parentPath, treeRows} from './graphql/resultTree.js';
import {loadHistory, saveHistory, withEntry, type HistoryEntry} from './graphql/history.js';
import {parseVariables} from './graphql/variables.js';
import {TextBox} from './graphql/TextBox.js';
import type {StoredConversation} from '../../gql/chat/chat-store.js';
import {errorRowsOf, ResultView, type RunState} from './graphql/ResultView.js';
import {
  BROWSE_KEY_LINE,
  EDIT_KEY_LINE,
  GqlKey,
  isCompleteKey,
  isGqlKey,
  isHistoryNewer,
  isHistoryOlder,
  isOtherBoxKey,
  isRunKey,
  isSubscriptionText,
  isToggleKey,
} from './graphql/gqlKeys.js';
import type {PaneDefinition, PaneProps} from './types.js';

type Section = 'query' | 'variables' | 'result';
type CompletionModule = typeof import('./graphql/completion.js');
type SchemaLoad = {state: 'loading'} | {state: 'ready'; schema: GraphQLSchema} | {state: 'failed'; error: string};

const LEFT_COLUMN = {min: 30, max: 100, share: 0.45};
const COMPLETIONS_SHOWN = 8;
/** A live subscription keeps its newest results (a busy table would fill memory otherwise). */
const LIVE_RESULTS_KEPT = 200;
const STARTING_QUERY = '{\n  \n}';

interface Editors {
  query: EditorState;
  variables: EditorState;
}

type EditorsAction = {box: 'query' | 'variables'; action: EditorAction} | {set: {query: string; variables: string}};

function editorsReducer(state: Editors, change: EditorsAction): Editors {
  if ('set' in change) return {query: editorFromText(change.set.query), variables: editorFromText(change.set.variables)};
  return {...state, [change.box]: editorReducer(state[change.box], change.action)};
}

const initialEditors = (): Editors => ({query: {...editorFromText(STARTING_QUERY), row: 1, col: 2}, variables: editorFromText('')});

/** A history entry as one picker row: the query folded onto a line, and when it ran. */
function historyRow(entry: HistoryEntry, index: number) {
  return {
    key: String(index),
    name: toTerminalLine(entry.query.replace(/\s+/g, ' ').trim()).slice(0, 60),
    detail: `${formatDate(entry.at)}${entry.variables.trim() ? ` · variables ${toTerminalLine(entry.variables.replace(/\s+/g, ' ')).slice(0, 60)}` : ''}`,
  };
}

/**
 * The GraphQL pane: a query editor with completion from the schema, a variables box, and the
 * result as a tree to scroll and fold. Queries run through the GraphQL port (a running
 * `workbench serve graphql`, else the service in-process): the same execution as `gql query`.
 * Queries run are kept in WORKBENCH_HOME/gql-history.json.
 */
function GraphqlPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {graphql: port} = usePorts();
  const visible = height > 0;
  const [section, setSection] = useState<Section>('result');
  // Keys may come faster than frames: handlers read and write the text through a ref, so each key
  // edits what the one before it left, and the frame follows.
  const [editors, setEditors] = useState(initialEditors);
  const editorsRef = useRef(editors);
  const dispatch = (change: EditorsAction) => {
    editorsRef.current = editorsReducer(editorsRef.current, change);
    setEditors(editorsRef.current);
  };
  const [message, setMessage] = useTransientMessage(8000);
  const [where, setWhere] = useState<string>();
  const [schema, setSchema] = useState<SchemaLoad>({state: 'loading'});
  const [completion, setCompletion] = useState<{selected: number}>();
  const [completionModule, setCompletionModule] = useState<CompletionModule>();
  const [run, setRun] = useState<RunState>({state: 'idle'});
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  // The selected row, like the text: read through a ref so keys that come faster than frames
  // (a held j, keys sent together) each move on from where the one before left it.
  const [selected, setSelectedState] = useState(0);
  const selectedRef = useRef(0);
  const setSelected = (index: number) => {
    selectedRef.current = index;
    setSelectedState(index);
  };
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [historyProblem, setHistoryProblem] = useState<string>();
  const [pickerOpen, setPickerOpen] = useState(false);
  // Ctrl-P/Ctrl-N walk the history; -1 is the text being written, kept as `draft`.
  const historyIndex = useRef(-1);
  const draft = useRef<{query: string; variables: string}>(undefined);
  const treeStart = useRef(0);
  const runId = useRef(0);
  // The stop of a running subscription; a new run, `s` or leaving the TUI ends it.
  const live = useRef<() => void>(undefined);
  useEffect(() => () => live.current?.(), []);

  // Once shown: the kept history, and the schema (completion needs it).
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (visible && !started) setStarted(true);
  }, [visible, started]);
  useEffect(() => {
    if (!started) return;
    const loaded = loadHistory();
    setHistory(loaded.entries);
    setHistoryProblem(loaded.problem);
  }, [started]);
  const loadSchema = useMemo(
    () => () => {
      setSchema({state: 'loading'});
      port.schema().then(
        (loaded) => {
          setSchema({state: 'ready', schema: loaded});
          port.where().then(setWhere, () => undefined);
        },
        (error: unknown) => setSchema({state: 'failed', error: describeError(error)}),
      );
    },
    [port],
  );
  useEffect(() => {
    if (started) loadSchema();
  }, [started, loadSchema]);
  // graphql-language-service loads with the pane's first look, not with the TUI.
  const completionLoader = useRef<Promise<CompletionModule>>(undefined);
  const loadCompletion = () => {
    completionLoader.current ??= import('./graphql/completion.js');
    return completionLoader.current.then((module) => {
      setCompletionModule(() => module);
      return module;
    });
  };
  useEffect(() => {
    if (started) loadCompletion().catch((error: unknown) => setMessage({kind: 'error', text: `completion unavailable: ${describeError(error)}`}));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started]);

  const data = run.state === 'done' ? run.result.data : undefined;
  const rows = useMemo(() => (data === undefined || data === null ? [] : treeRows(data, closed, 'data')), [data, closed]);
  const selectedIndex = Math.max(0, Math.min(rows.length - 1, selected));

  const completions = useMemo<Completion[]>(() => {
    if (!completion || !completionModule || schema.state !== 'ready') return [];
    return completionModule.completionsAt(schema.schema, editors.query);
  }, [completion, completionModule, schema, editors.query]);

  // --- actions ---

  const runQuery = async () => {
    const query = editorText(editorsRef.current.query);
    const variablesText = editorText(editorsRef.current.variables);
    if (!query.trim()) return setMessage({kind: 'error', text: 'the query is empty: e to write one'});
    let variables: Record<string, unknown> | undefined;
    try {
      variables = parseVariables(variablesText);
    } catch (error) {
      return setMessage({kind: 'error', text: describeError(error)});
    }
    setCompletion(undefined);
    const id = ++runId.current;
    live.current?.();
    live.current = undefined;
    const began = performance.now();
    setRun({state: 'running'});
    const entry: HistoryEntry = {query, variables: variablesText, at: new Date().toISOString()};
    const next = withEntry(history, entry);
    setHistory(next);
    historyIndex.current = -1;
    try {
      saveHistory(next);
    } catch (error) {
      setMessage({kind: 'error', text: `query history not saved: ${describeError(error)}`});
    }
    if (isSubscriptionText(query)) return subscribe(id, query, variables, began);
    try {
      const result = await port.run(query, variables);
      if (id !== runId.current) return;
      setRun({state: 'done', result, ms: Math.round(performance.now() - began)});
      setClosed(new Set());
      setSelected(0);
      treeStart.current = 0;
      if (schema.state === 'failed') loadSchema();
    } catch (error) {
      if (id === runId.current) setRun({state: 'failed', error: describeError(error)});
    }
  };

  /** A subscription: each change is put on top of the result as it commits, until stopped. */
  const subscribe = async (id: number, query: string, variables: Record<string, unknown> | undefined, began: number) => {
    const results: unknown[] = [];
    const errors: NonNullable<GqlExecuteResult['errors']>[number][] = [];
    let field = 'events';
    let count = 0;
    const show = (ended?: string) =>
      setRun({
        state: 'done',
        result: {data: {[field]: [...results]}, ...(errors.length > 0 ? {errors: errors.slice(-20)} : {})},
        ms: Math.round(performance.now() - began),
        live: {events: count, ...(ended ? {ended} : {})},
      });
    try {
      show();
      setClosed(new Set());
      setSelected(0);
      treeStart.current = 0;
      const stop = await port.subscribe(query, variables, {
        onResult(result) {
          if (id !== runId.current) return;
          const data = result.data ?? {};
          const key = Object.keys(data)[0];
          if (key) {
            field = key;
            results.unshift(data[key]);
            results.length = Math.min(results.length, LIVE_RESULTS_KEPT);
            count += 1;
          }
          errors.push(...(result.errors ?? []));
          show();
        },
        onEnd(error) {
          if (id !== runId.current) return;
          live.current = undefined;
          show(error ?? 'ended');
          if (error) setMessage({kind: 'error', text: `the subscription ended: ${error}`});
        },
      });
      if (id !== runId.current) stop();
      else live.current = stop;
    } catch (error) {
      if (id === runId.current) setRun({state: 'failed', error: describeError(error)});
    }
  };

  const stopSubscription = () => {
    if (!live.current) return setMessage({kind: 'info', text: 'no subscription is running'});
    // The run is over for the pane: its end (the iterator closing) must not say more than "stopped".
    runId.current += 1;
    live.current();
    live.current = undefined;
    setRun((current) => (current.state === 'done' && current.live ? {...current, live: {...current.live, ended: 'stopped'}} : current));
  };

  const recall = (step: number) => {
    // An entry the boxes already hold is passed over: after a run the newest entry is the text on
    // screen, and Ctrl-P should bring the query before it, not the same one again.
    const shown = {query: editorText(editorsRef.current.query), variables: editorText(editorsRef.current.variables)};
    const same = (entry: HistoryEntry | undefined) => entry !== undefined && entry.query === shown.query && entry.variables === shown.variables;
    let target = historyIndex.current + step;
    while (target >= 0 && target < history.length && same(history[target])) target += step;
    if (target < -1 || target >= history.length) return setMessage({kind: 'info', text: target < -1 ? 'newest: the text you were writing' : 'no older query in the history'});
    if (historyIndex.current === -1) draft.current = shown;
    historyIndex.current = target;
    const entry = target === -1 ? draft.current : history[target];
    if (entry) dispatch({set: {query: entry.query, variables: entry.variables}});
    setCompletion(undefined);
    setMessage({kind: 'info', text: target === -1 ? 'back to the text you were writing' : `history ${target + 1} of ${history.length}`});
  };

  const acceptCompletion = (choice: Completion | undefined) => {
    setCompletion(undefined);
    if (choice && completionModule) dispatch({box: 'query', action: completionModule.completionEdit(editorsRef.current.query, choice)});
  };

  const openCompletion = async () => {
    if (schema.state !== 'ready') {
      if (schema.state === 'failed') loadSchema();
      return setMessage({kind: 'error', text: schema.state === 'loading' ? 'the schema is still loading' : `no schema for completion: ${schema.error}`});
    }
    const asked = editorsRef.current.query;
    const module = completionModule ?? (await loadCompletion());
    // Keys typed while it loaded moved the text on: the completion asked for no longer fits.
    if (editorsRef.current.query !== asked) return;
    const found = module.completionsAt(schema.schema, asked);
    if (found.length === 0) return setMessage({kind: 'info', text: 'nothing to complete here'});
    // One candidate: put it in at once.
    if (found.length === 1) return dispatch({box: 'query', action: module.completionEdit(asked, found[0]!)});
    setCompletion({selected: 0});
  };

  /** The served database's chat conversations (source/gql/chat/) in the result tree: who said what, oldest first. */
  const showConversations = async () => {
    const id = ++runId.current;
    live.current?.();
    live.current = undefined;
    const began = performance.now();
    setRun({state: 'running'});
    try {
      const conversations = await (await port.chat()).conversations();
      if (id !== runId.current) return;
      const data = {conversations: conversations.map(conversationTree)};
      setRun({state: 'done', result: {data}, ms: Math.round(performance.now() - began), label: `Chat conversations · ${conversations.length}`});
      setClosed(new Set());
      setSelected(0);
      setSection('result');
    } catch (error) {
      if (id === runId.current) setRun({state: 'failed', error: describeError(error)});
    }
  };

  // --- keys ---

  const editorRows = useRef(10);
  const editKeys = (press: Keypress): boolean => {
    const box = section === 'variables' ? 'variables' : 'query';
    if (isRunKey(press)) void runQuery();
    else if (press.name === 'escape') {
      if (completion) setCompletion(undefined);
      else setSection('result');
    } else if (completion && (press.name === 'up' || press.name === 'down'))
      setCompletion({selected: Math.max(0, Math.min(completions.length - 1, completion.selected + (press.name === 'up' ? -1 : 1)))});
    else if (completion && (isCompleteKey(press) || press.name === 'return')) acceptCompletion(completions[Math.min(completion.selected, completions.length - 1)]);
    else if (isOtherBoxKey(press)) {
      setCompletion(undefined);
      setSection(box === 'query' ? 'variables' : 'query');
    } else if (isCompleteKey(press)) {
      if (box === 'query') void openCompletion().catch((error: unknown) => setMessage({kind: 'error', text: `completion failed: ${describeError(error)}`}));
      else dispatch({box, action: {type: 'insert', text: '  '}});
    } else if (isHistoryOlder(press)) recall(1);
    else if (isHistoryNewer(press)) recall(-1);
    else {
      const action = editorActionForKey(press, Math.max(1, editorRows.current - 1));
      if (action) {
        dispatch({box, action});
        if (completion) setCompletion({selected: 0});
      }
    }
    // Every key stays in the box (q types a q); Ctrl-C still quits, above everything.
    return true;
  };

  const moveTo = (index: number) => setSelected(Math.max(0, Math.min(rows.length - 1, index)));
  const browseKeys = (press: Keypress): boolean => {
    const page = Math.max(1, treeRowsShown.current - 1);
    const keyIndex = Math.max(0, Math.min(rows.length - 1, selectedRef.current));
    const keyRow = rows[keyIndex];
    if (isRunKey(press) || isGqlKey('RUN_PLAIN', press)) void runQuery();
    else if (isGqlKey('EDIT_QUERY', press) || press.input === 'i') setSection('query');
    else if (isGqlKey('EDIT_VARIABLES', press)) setSection('variables');
    else if (isGqlKey('HISTORY', press)) setPickerOpen(true);
    else if (isGqlKey('STOP', press)) stopSubscription();
    else if (isGqlKey('CONVERSATIONS', press)) void showConversations();
    else if (matchesCommand(Command.UP, press)) moveTo(keyIndex - 1);
    else if (matchesCommand(Command.DOWN, press)) moveTo(keyIndex + 1);
    else if (matchesCommand(Command.PAGE_UP, press)) moveTo(keyIndex - page);
    else if (matchesCommand(Command.PAGE_DOWN, press)) moveTo(keyIndex + page);
    else if (press.name === 'home' || (press.input === 'g' && !press.ctrl && !press.name)) moveTo(0);
    else if (press.name === 'end' || (press.input === 'G' && !press.ctrl && !press.name)) moveTo(rows.length - 1);
    else if (keyRow && isToggleKey(press) && keyRow.kind !== 'scalar') {
      const path = keyRow.path;
      setClosed((current) => {
        const next = new Set(current);
        if (next.has(path)) next.delete(path);
        else next.add(path);
        return next;
      });
    } else if (keyRow && press.name === 'left') {
      // ← closes an open container, else goes to the one that holds this row.
      if (keyRow.kind !== 'scalar' && keyRow.open) setClosed((current) => new Set(current).add(keyRow.path));
      else {
        const parent = parentPath(keyRow.path);
        const at = rows.findIndex((row) => row.path === parent);
        if (at >= 0) moveTo(at);
      }
    } else if (keyRow && press.name === 'right' && keyRow.kind !== 'scalar' && !keyRow.open)
      setClosed((current) => {
        const next = new Set(current);
        next.delete(keyRow.path);
        return next;
      });
    else if (isGqlKey('CLOSE_ALL', press) && data) {
      // Everything but the top: the answer's fields stay in sight, folded.
      setClosed(new Set(containerPaths(data, 'data').filter((path) => path.split('.').length > 2)));
      moveTo(0);
    } else if (isGqlKey('OPEN_ALL', press)) setClosed(new Set());
    else if (matchesCommand(Command.BACK, press) && message) setMessage(undefined);
    else return false;
    return true;
  };

  const editing = section !== 'result';
  useKeypress(editKeys, {isActive: focused && editing && !pickerOpen, priority: KeyPriority.INPUT});
  useKeypress(browseKeys, {isActive: focused && !editing && !pickerOpen, priority: KeyPriority.PANE});
  useStatusHints(focused, editing ? ['ctrl-r run', 'tab complete', 'esc done'] : ['e edit', 'r run', 'h history']);

  // --- layout ---

  const messages: PaneMessage[] = [];
  if (historyProblem) messages.push({kind: 'error', text: historyProblem});
  if (schema.state === 'failed') messages.push({kind: 'error', text: `schema: ${schema.error}`});
  if (message) messages.push(message);
  const shownMessages = messages.slice(-2);
  const keyLineRows = height >= 8 ? 1 : 0;
  const bodyRows = Math.max(0, height - 1 - shownMessages.length - keyLineRows);
  const leftWidth = compact ? width : Math.min(LEFT_COLUMN.max, Math.max(LEFT_COLUMN.min, Math.floor(width * LEFT_COLUMN.share)));
  const rightWidth = compact ? width : Math.max(0, width - leftWidth - 1);

  // Left: the query (with the completion list under it while open) and the variables; compact stacks the result below.
  const variableRows = Math.max(1, Math.min(8, Math.floor(bodyRows * 0.2)));
  const resultRowsCompact = compact ? Math.max(3, Math.floor(bodyRows * 0.4)) : 0;
  const completionRows = completion && completions.length ? Math.min(COMPLETIONS_SHOWN, completions.length) : completion ? 1 : 0;
  const queryRows = Math.max(1, bodyRows - 2 - variableRows - resultRowsCompact - (compact ? 1 : 0) - completionRows);
  editorRows.current = queryRows;
  const resultHeight = compact ? resultRowsCompact : Math.max(0, bodyRows - 1);
  const treeHeight = Math.max(0, resultHeight - errorRowsOf(run));
  const treeRowsShown = useRef(treeHeight);
  treeRowsShown.current = treeHeight;
  treeStart.current = listWindowStart(selectedIndex, rows.length, treeHeight, treeStart.current);

  const heading = (text: string, active: boolean, hint: string) => (
    <Box height={1} width={compact ? width : leftWidth}>
      <Text wrap="truncate-end">
        <Text bold color={active && focused ? 'cyan' : undefined}>
          {text}
        </Text>
        <Text dimColor> {hint}</Text>
      </Text>
    </Box>
  );
  const completionStart = completion ? Math.max(0, Math.min(completion.selected - COMPLETIONS_SHOWN + 1, completions.length - COMPLETIONS_SHOWN)) : 0;
  const completionList = completion && (
    <Box height={completionRows} width={leftWidth} flexDirection="column" overflowY="hidden">
      {completions.length === 0 && <Text dimColor> no completion here</Text>}
      {completions.slice(Math.max(0, completionStart), Math.max(0, completionStart) + COMPLETIONS_SHOWN).map((choice, offset) => {
        const index = Math.max(0, completionStart) + offset;
        return (
          <Box key={choice.label} height={1}>
            <Text inverse={index === completion.selected} wrap="truncate-end">
              {index === completion.selected ? ' ▸ ' : '   '}
              {toTerminalLine(choice.label)}
              <Text dimColor> {toTerminalLine(choice.detail)}</Text>
            </Text>
          </Box>
        );
      })}
    </Box>
  );
  const left = (
    <Box width={leftWidth} flexDirection="column" flexShrink={0}>
      {heading('Query', section === 'query', section === 'query' ? 'tab complete · ctrl-r run · esc done' : 'e edit')}
      <TextBox state={editors.query} active={focused && section === 'query'} rows={queryRows} width={leftWidth} placeholder="{ table { data { field } } }" />
      {completionList}
      {heading('Variables', section === 'variables', section === 'variables' ? 'JSON object · shift-tab back to the query' : 'v edit')}
      <TextBox state={editors.variables} active={focused && section === 'variables'} rows={variableRows} width={leftWidth} placeholder='none · a JSON object, e.g. {"id": 1}' />
    </Box>
  );
  const errorCount = run.state === 'done' && run.result.errors?.length ? ` · ${run.result.errors.length} error${run.result.errors.length === 1 ? '' : 's'}` : '';
  const resultTitle =
    run.state !== 'done'
      ? 'Result'
      : run.live
        ? `Result · live · ${run.live.events} change${run.live.events === 1 ? '' : 's'}${run.live.ended ? ` · ${run.live.ended === 'ended' || run.live.ended === 'stopped' ? run.live.ended : 'ended'}` : ' · s stops'}${errorCount}`
        : `${run.label ?? 'Result'} · ${run.ms} ms${errorCount}`;
  const right = pickerOpen ? (
    <ChoicePicker
      title={{text: 'Query history', hint: 'enter puts it in the editor · esc closes'}}
      loading="reading the history…"
      empty="no queries run yet"
      load={async () => history}
      row={(entry) => historyRow(entry, history.indexOf(entry))}
      focused={focused}
      width={rightWidth}
      height={bodyRows}
      onPick={(entry) => {
        setPickerOpen(false);
        dispatch({set: {query: entry.query, variables: entry.variables}});
        setSection('query');
      }}
      onClose={() => setPickerOpen(false)}
    />
  ) : (
    <Box width={rightWidth} flexDirection="column">
      <Box height={1} width={rightWidth}>
        <Text bold color={section === 'result' && focused ? 'cyan' : undefined} wrap="truncate-end">
          {resultTitle}
        </Text>
      </Box>
      <ResultView run={run} rows={rows} selected={selectedIndex} start={treeStart.current} active={focused && section === 'result'} width={rightWidth} height={resultHeight} />
    </Box>
  );

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box height={1} width={width}>
        <Text wrap="truncate-end">
          <Text dimColor>
            {where ? toTerminalLine(where) : schema.state === 'loading' ? 'connecting…' : 'not connected'}
            {schema.state === 'ready' ? (completionModule ? ' · schema loaded, tab completes' : ' · schema loaded') : ''}
          </Text>
        </Text>
      </Box>
      {shownMessages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      {compact ? (
        <Box height={bodyRows} flexDirection="column" overflowY="hidden">
          {left}
          {right}
        </Box>
      ) : (
        <Box height={bodyRows} flexDirection="row" overflowY="hidden">
          {left}
          <Box width={rightWidth + 1} height={bodyRows} borderStyle="single" borderColor="gray" borderTop={false} borderRight={false} borderBottom={false} flexShrink={0}>
            {right}
          </Box>
        </Box>
      )}
      {keyLineRows > 0 && (
        <Box height={1} width={width}>
          <Text dimColor wrap="truncate-end">
            {editing ? EDIT_KEY_LINE : BROWSE_KEY_LINE}
          </Text>
        </Box>
      )}
    </Box>
  );
}

/** A stored conversation as the tree shows it: its id and title, then one line per message. */
function conversationTree(conversation: StoredConversation): {id: string | number; title: string | null; messages: string[]} {
  return {
    id: conversation.id,
    title: conversation.title ?? null,
    messages: conversation.messages.map((message) => `${message.createdAt.slice(0, 19)} ${message.role}: ${message.content}`),
  };
}

export const graphqlPane: PaneDefinition = {
  id: 'graphql',
  title: 'GraphQL',
  keys: [
    {heading: 'Browsing the result'},
    {label: GqlKey.EDIT_QUERY, description: 'edit the query (i too)'},
    {label: GqlKey.EDIT_VARIABLES, description: 'edit the variables (a JSON object, checked before the query runs)'},
    {label: `${GqlKey.RUN_PLAIN}/${GqlKey.RUN}`, description: 'run the query (through a running serve graphql, else in-process)'},
    {label: GqlKey.HISTORY, description: 'pick a query from the history (WORKBENCH_HOME/gql-history.json)'},
    {label: GqlKey.CONVERSATIONS, description: "the database's chat conversations (chat-conversations / chat-messages tables), each message as `time role: text`"},
    {label: GqlKey.STOP, description: 'stop the running subscription (a `subscription { <t>Changed … }` shows each change as it commits, newest first)'},
    {command: Command.UP, description: 'previous row of the result'},
    {command: Command.DOWN, description: 'next row of the result'},
    {command: Command.PAGE_DOWN, description: 'a page down the result'},
    {label: 'enter/space', description: 'open or close the object or list'},
    {label: '←/→', description: 'close (or go to the parent) / open'},
    {label: `${GqlKey.CLOSE_ALL}/${GqlKey.OPEN_ALL}`, description: 'close / open everything'},
    {heading: 'Editing the query or the variables'},
    {label: GqlKey.RUN, description: 'run the query'},
    {label: 'tab', description: 'complete the field name at the cursor from the schema (↑↓ choose, tab/enter take, esc close)'},
    {label: 'shift-tab', description: 'the other box: query ↔ variables'},
    {label: 'ctrl-p/ctrl-n', description: 'older / newer query from the history'},
    {label: 'ctrl-a/ctrl-e, ctrl-k/ctrl-u', description: 'line start / end, delete to the end / start of the line'},
    {label: 'esc', description: 'stop editing (q, tab, 1-9 and ? work again)'},
  ],
  Component: GraphqlPane,
};
