import {useEffect, useMemo, useRef, useState} from 'react';
import type {GraphQLSchema} from 'graphql';
import {describeError} from '../../../core/errors.js';
import type {PaneMessage} from '../../components/MessageLine.js';
import type {GraphqlPort} from '../../ports/graphql.js';
import {useRefState} from '../../hooks/useRefState.js';
import {useTextInput, type TextInput} from '../../hooks/useTextInput.js';
import {useTransientMessage} from '../../hooks/useTransientMessage.js';
import type {Completion} from './completion.js';
import {editorFromText, editorText, type EditorAction, type EditorState} from './editorModel.js';
import {isSubscriptionText} from './operationKind.js';
import type {HistoryEntry} from './history.js';
import {useQueryHistory} from './useQueryHistory.js';
import type {RunState} from './ResultView.js';
import {useResultTree, type ResultTree} from './useResultTree.js';
import {useRuns} from './useRuns.js';
import {parseVariables} from './variables.js';

export type Section = 'query' | 'variables' | 'result';
export type SchemaLoad = {state: 'loading'} | {state: 'ready'; schema: GraphQLSchema} | {state: 'failed'; error: string};
type CompletionModule = typeof import('./completion.js');
/** The open completion list: the candidates at the cursor and the one chosen. */
export interface CompletionList {
  items: Completion[];
  selected: number;
}

const STARTING_QUERY = '{\n  \n}';
const initialQuery = (): EditorState => ({...editorFromText(STARTING_QUERY), row: 1, col: 2});

export interface GraphqlController {
  /** The query and variables boxes (the one text input each). */
  boxes: {query: TextInput; variables: TextInput};
  /** What the frame draws; keys read `section()`, `pickerOpen()`, `completionList()`. */
  state: {
    section: Section;
    pickerOpen: boolean;
    completion: CompletionList | undefined;
    completionReady: boolean;
    schema: SchemaLoad;
    where: string | undefined;
    run: RunState;
    history: HistoryEntry[];
    historyProblem: string | undefined;
    message: PaneMessage | undefined;
  };
  tree: ResultTree;
  section(): Section;
  pickerOpen(): boolean;
  completionList(): CompletionList | undefined;
  setSection(section: Section): void;
  setMessage(message: PaneMessage | undefined): void;
  /** The box being edited (the query unless the variables are). */
  editing(): 'query' | 'variables';
  /** A key's edit of the box being edited; an open completion list follows the text. */
  edit(action: EditorAction): void;
  run(): Promise<void>;
  stopSubscription(): void;
  showConversations(): Promise<void>;
  /** Ctrl-P (1) / Ctrl-N (-1): an older / newer query from the history into the boxes. */
  recall(step: 1 | -1): void;
  openCompletion(): Promise<void>;
  moveCompletion(step: number): void;
  acceptCompletion(): void;
  closeCompletion(): void;
  openPicker(): void;
  closePicker(): void;
  pick(entry: HistoryEntry): void;
}

/**
 * What the GraphQL pane does, apart from drawing it: the query and variables text, the schema
 * (for completion), running a query or a subscription through the GraphQL port (the same execution
 * as `gql query`), the result tree, the history kept in WORKBENCH_HOME/gql-history.json. Everything
 * a key reads is read as the key before it left it (refs), not as the last frame showed it.
 */
export function useGraphql(port: GraphqlPort, {visible}: {visible: boolean}): GraphqlController {
  // The two boxes hold their text in the one text input, which keeps it as the last key left it.
  const boxes = {query: useTextInput(undefined, {initial: initialQuery}), variables: useTextInput(undefined)};
  const [section, getSection, setSection] = useRefState<Section>('result');
  const [message, setMessage] = useTransientMessage(8000);
  const [where, setWhere] = useState<string>();
  const [schema, getSchema, setSchema] = useRefState<SchemaLoad>({state: 'loading'});
  const [completion, getCompletion, setCompletion] = useRefState<CompletionList | undefined>(undefined);
  const [completionModule, getCompletionModule, setCompletionModule] = useRefState<CompletionModule | undefined>(undefined);
  const [pickerOpen, getPickerOpen, setPickerOpen] = useRefState(false);
  const tree = useResultTree(() => {
    const current = runs.get();
    return current.state === 'done' ? current.result.data : undefined;
  });
  const runs = useRuns(port, {shown: () => tree.reset(), ended: (error) => setMessage({kind: 'error', text: `the subscription ended: ${error}`})});

  const setBoxes = (text: {query: string; variables: string}) => {
    boxes.query.set(text.query);
    boxes.variables.set(text.variables);
  };

  // Once shown: the kept history, and the schema (completion needs it).
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (visible && !started) setStarted(true);
  }, [visible, started]);
  const history = useQueryHistory({start: started});
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [port],
  );
  useEffect(() => {
    if (started) loadSchema();
  }, [started, loadSchema]);
  // graphql-language-service loads with the pane's first look, not with the TUI.
  const completionLoader = useRef<Promise<CompletionModule>>(undefined);
  const loadCompletion = () => {
    completionLoader.current ??= import('./completion.js');
    return completionLoader.current.then((module) => {
      setCompletionModule(module);
      return module;
    });
  };
  useEffect(() => {
    if (started) loadCompletion().catch((error: unknown) => setMessage({kind: 'error', text: `completion unavailable: ${describeError(error)}`}));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [started]);

  const runQuery = async () => {
    const query = editorText(boxes.query.current());
    const variablesText = editorText(boxes.variables.current());
    if (!query.trim()) return setMessage({kind: 'error', text: 'the query is empty: e to write one'});
    let variables: Record<string, unknown> | undefined;
    try {
      variables = parseVariables(variablesText);
    } catch (error) {
      return setMessage({kind: 'error', text: describeError(error)});
    }
    setCompletion(undefined);
    const notSaved = history.add({query, variables: variablesText});
    if (notSaved) setMessage({kind: 'error', text: notSaved});
    if (isSubscriptionText(query)) return runs.subscribe(query, variables);
    if ((await runs.query(query, variables)) && getSchema().state === 'failed') loadSchema();
  };

  const recall = (step: 1 | -1) => {
    const found = history.recall(step, {query: editorText(boxes.query.current()), variables: editorText(boxes.variables.current())});
    if (found.texts) {
      setBoxes(found.texts);
      setCompletion(undefined);
    }
    setMessage({kind: 'info', text: found.message});
  };

  /** The candidates at the query's cursor, once the schema and the completion module are there. */
  const completionsNow = (): Completion[] => {
    const loaded = getSchema();
    const module = getCompletionModule();
    return loaded.state === 'ready' && module ? module.completionsAt(loaded.schema, boxes.query.current()) : [];
  };

  const openCompletion = async () => {
    const loaded = getSchema();
    if (loaded.state !== 'ready') {
      if (loaded.state === 'failed') loadSchema();
      return setMessage({kind: 'error', text: loaded.state === 'loading' ? 'the schema is still loading' : `no schema for completion: ${loaded.error}`});
    }
    const asked = boxes.query.current();
    const module = getCompletionModule() ?? (await loadCompletion());
    // Keys typed while it loaded moved the text on: the completion asked for no longer fits.
    if (boxes.query.current() !== asked) return;
    const found = module.completionsAt(loaded.schema, asked);
    if (found.length === 0) return setMessage({kind: 'info', text: 'nothing to complete here'});
    // One candidate: put it in at once.
    if (found.length === 1) return boxes.query.edit(module.completionEdit(asked, found[0]!));
    setCompletion({items: found, selected: 0});
  };

  const acceptCompletion = () => {
    const list = getCompletion();
    setCompletion(undefined);
    const choice = list?.items[Math.min(list.selected, list.items.length - 1)];
    const module = getCompletionModule();
    if (choice && module) boxes.query.edit(module.completionEdit(boxes.query.current(), choice));
  };

  const editing = () => (getSection() === 'variables' ? 'variables' : 'query');

  return {
    boxes,
    state: {
      section,
      pickerOpen,
      completion,
      completionReady: completionModule !== undefined,
      schema,
      where,
      run: runs.state,
      history: history.entries,
      historyProblem: history.problem,
      message,
    },
    tree,
    section: getSection,
    pickerOpen: getPickerOpen,
    completionList: getCompletion,
    setSection(next) {
      setCompletion(undefined);
      setSection(next);
    },
    setMessage,
    editing,
    edit(action) {
      boxes[editing()].edit(action);
      if (getCompletion()) setCompletion({items: completionsNow(), selected: 0});
    },
    run: runQuery,
    stopSubscription() {
      if (!runs.stop()) setMessage({kind: 'info', text: 'no subscription is running'});
    },
    async showConversations() {
      if (!(await runs.conversations())) return;
      setCompletion(undefined);
      setSection('result');
    },
    recall,
    openCompletion,
    moveCompletion(step) {
      const list = getCompletion();
      if (list) setCompletion({...list, selected: Math.max(0, Math.min(list.items.length - 1, list.selected + step))});
    },
    acceptCompletion,
    closeCompletion: () => setCompletion(undefined),
    openPicker: () => setPickerOpen(true),
    closePicker: () => setPickerOpen(false),
    pick(entry) {
      setPickerOpen(false);
      setBoxes({query: entry.query, variables: entry.variables});
      setSection('query');
    },
  };
}
