import {useKeypress} from '../../hooks/useKeypress.js';
import {Command, matchesCommand, type Keypress} from '../../key/keyBindings.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {describeError} from '../../../core/errors.js';
import {editorActionForKey} from './editorModel.js';
import type {GraphqlController} from './useGraphql.js';

/** Rows of the last frame that a page key moves by: the query box's and the result tree's. */
export interface PageSizes {
  editor: number;
  tree: number;
}

/** A key while a box is edited: every key stays in the box (q types a q); Ctrl-C still quits, above everything. */
function editKey(gql: GraphqlController, press: Keypress, pages: PageSizes): true {
  const completion = gql.completionList();
  if (matchesCommand(Command.GQL_RUN_EDITING, press)) void gql.run();
  else if (press.name === 'escape') {
    if (completion) gql.closeCompletion();
    else gql.setSection('result');
  } else if (completion && (press.name === 'up' || press.name === 'down')) gql.moveCompletion(press.name === 'up' ? -1 : 1);
  else if (completion && (matchesCommand(Command.GQL_COMPLETE, press) || press.name === 'return')) gql.acceptCompletion();
  else if (matchesCommand(Command.GQL_OTHER_BOX, press)) gql.setSection(gql.editing() === 'query' ? 'variables' : 'query');
  else if (matchesCommand(Command.GQL_COMPLETE, press)) {
    if (gql.editing() === 'query') void gql.openCompletion().catch((error: unknown) => gql.setMessage({kind: 'error', text: `completion failed: ${describeError(error)}`}));
    else gql.edit({type: 'insert', text: '  '});
  } else if (matchesCommand(Command.GQL_HISTORY_OLDER, press)) gql.recall(1);
  else if (matchesCommand(Command.GQL_HISTORY_NEWER, press)) gql.recall(-1);
  else {
    const action = editorActionForKey(press, Math.max(1, pages.editor - 1));
    if (action) gql.edit(action);
  }
  return true;
}

/** A key while the result is browsed; false leaves it to the TUI (q, tab, digits, ?). */
function browseKey(gql: GraphqlController, press: Keypress, pages: PageSizes): boolean {
  const {tree} = gql;
  const page = Math.max(1, pages.tree - 1);
  if (matchesCommand(Command.GQL_RUN_EDITING, press) || matchesCommand(Command.GQL_RUN, press)) void gql.run();
  else if (matchesCommand(Command.GQL_EDIT_QUERY, press)) gql.setSection('query');
  else if (matchesCommand(Command.GQL_EDIT_VARIABLES, press)) gql.setSection('variables');
  else if (matchesCommand(Command.GQL_HISTORY, press)) gql.openPicker();
  else if (matchesCommand(Command.GQL_STOP, press)) gql.stopSubscription();
  else if (matchesCommand(Command.GQL_CONVERSATIONS, press)) void gql.showConversations();
  else if (matchesCommand(Command.UP, press)) tree.moveBy(-1);
  else if (matchesCommand(Command.DOWN, press)) tree.moveBy(1);
  else if (matchesCommand(Command.PAGE_UP, press)) tree.moveBy(-page);
  else if (matchesCommand(Command.PAGE_DOWN, press)) tree.moveBy(page);
  else if (matchesCommand(Command.OUTPUT_TOP, press)) tree.moveTo(0);
  else if (matchesCommand(Command.OUTPUT_BOTTOM, press)) tree.moveTo(tree.rows().length - 1);
  else if (matchesCommand(Command.GQL_TOGGLE, press)) return tree.toggle();
  else if (matchesCommand(Command.LEFT, press)) return tree.left();
  else if (matchesCommand(Command.RIGHT, press)) return tree.right();
  else if (matchesCommand(Command.GQL_CLOSE_ALL, press)) return tree.closeAll();
  else if (matchesCommand(Command.GQL_OPEN_ALL, press)) tree.openAll();
  else if (matchesCommand(Command.BACK, press) && gql.state.message) gql.setMessage(undefined);
  else return false;
  return true;
}

/**
 * The GraphQL pane's keys, mapped to its controller. Both handlers stay subscribed and ask the
 * controller which part has the keys: `e` and the text typed after it in one read reach the
 * editor, as the section `e` chose, not the one the last frame showed.
 */
export function useGraphqlKeys(gql: GraphqlController, {focused, pages}: {focused: boolean; pages: () => PageSizes}): void {
  const inBox = () => gql.section() !== 'result' && !gql.pickerOpen();
  useKeypress((press) => inBox() && editKey(gql, press, pages()), {isActive: focused, priority: KeyPriority.INPUT});
  useKeypress((press) => gql.section() === 'result' && !gql.pickerOpen() && browseKey(gql, press, pages()), {isActive: focused, priority: KeyPriority.PANE});
}
