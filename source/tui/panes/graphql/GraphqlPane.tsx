import React, {useRef} from 'react';
import {Box, Text} from 'ink';
import {emptySchemaHint} from '../../../gql/schema/empty-schema.js';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import {usePorts} from '../../contexts/PortsContext.js';
import {useStatusHints} from '../../hooks/useStatusHints.js';
import {MessageLine, type PaneMessage} from '../../components/MessageLine.js';
import {TextBox} from './TextBox.js';
import {CompletionList, completionRows} from './CompletionList.js';
import {HistoryPicker} from './HistoryPicker.js';
import {errorRowsOf, ResultView, resultTitle} from './ResultView.js';
import {Command, lineLabel} from '../../key/keyBindings.js';
import {barHints, keyLine} from '../../key/keyTable.js';
import {useGraphql} from './useGraphql.js';
import {useGraphqlKeys, type PageSizes} from './useGraphqlKeys.js';
import type {PaneDefinition, PaneProps} from '../types.js';

const LEFT_COLUMN = {min: 30, max: 100, share: 0.45};

/**
 * The GraphQL pane: a query editor with completion from the schema, a variables box, and the
 * result as a tree to scroll and fold. What it does is its controller's (useGraphql), its keys
 * are useGraphqlKeys'; this file lays the parts out.
 */
function GraphqlPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {graphql: port} = usePorts();
  const gql = useGraphql(port, {visible: height > 0});
  const {section, pickerOpen, completion, completionReady, schema, where, run, history, historyProblem, message} = gql.state;
  // The last frame's sizes: what a page key moves by is what the user sees.
  const pages = useRef<PageSizes>({editor: 10, tree: 10});
  useGraphqlKeys(gql, {focused, pages: () => pages.current});
  const editing = section !== 'result';
  useStatusHints(focused, barHints('graphql', editing ? 'edit' : 'browse', {hints: {[Command.BACK]: 'done'}}));

  // An empty database: the pane says how to fill it (the same hint as `gql query` and `serve graphql`).
  const emptyHint = schema.state === 'ready' ? emptySchemaHint(schema.schema) : undefined;
  const messages: PaneMessage[] = [];
  if (historyProblem) messages.push({kind: 'error', text: historyProblem});
  if (schema.state === 'failed') messages.push({kind: 'error', text: `schema: ${schema.error}`});
  if (emptyHint) messages.push({kind: 'info', text: emptyHint});
  if (message) messages.push(message);
  const shownMessages = messages.slice(-2);
  const keyLineRows = height >= 8 ? 1 : 0;
  const bodyRows = Math.max(0, height - 1 - shownMessages.length - keyLineRows);
  const leftWidth = compact ? width : Math.min(LEFT_COLUMN.max, Math.max(LEFT_COLUMN.min, Math.floor(width * LEFT_COLUMN.share)));
  const rightWidth = compact ? width : Math.max(0, width - leftWidth - 1);

  // Left: the query (with the completion list under it while open) and the variables; compact stacks the result below.
  const variableRows = Math.max(1, Math.min(8, Math.floor(bodyRows * 0.2)));
  const resultRowsCompact = compact ? Math.max(3, Math.floor(bodyRows * 0.4)) : 0;
  const queryRows = Math.max(1, bodyRows - 2 - variableRows - resultRowsCompact - (compact ? 1 : 0) - completionRows(completion));
  const resultHeight = compact ? resultRowsCompact : Math.max(0, bodyRows - 1);
  const treeHeight = Math.max(0, resultHeight - errorRowsOf(run));
  pages.current = {editor: queryRows, tree: treeHeight};
  const treeStart = gql.tree.windowStart(treeHeight);

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
  const left = (
    <Box width={leftWidth} flexDirection="column" flexShrink={0}>
      {heading(
        'Query',
        section === 'query',
        section === 'query'
          ? keyLine('graphql', 'edit', {only: [Command.GQL_COMPLETE, Command.GQL_RUN_EDITING, Command.BACK], hints: {[Command.BACK]: 'done'}})
          : `${lineLabel(Command.GQL_EDIT_QUERY)} edit`,
      )}
      <TextBox state={gql.boxes.query.state} active={focused && section === 'query'} rows={queryRows} width={leftWidth} placeholder="{ table { data { field } } }" />
      {completion && <CompletionList list={completion} width={leftWidth} />}
      {heading(
        'Variables',
        section === 'variables',
        section === 'variables' ? `JSON object · ${lineLabel(Command.GQL_OTHER_BOX)} back to the query` : `${lineLabel(Command.GQL_EDIT_VARIABLES)} edit`,
      )}
      <TextBox
        state={gql.boxes.variables.state}
        active={focused && section === 'variables'}
        rows={variableRows}
        width={leftWidth}
        placeholder='none · a JSON object, e.g. {"id": 1}'
      />
    </Box>
  );
  const right = pickerOpen ? (
    <HistoryPicker history={history} focused={focused} width={rightWidth} height={bodyRows} onPick={gql.pick} onClose={gql.closePicker} />
  ) : (
    <Box width={rightWidth} flexDirection="column">
      <Box height={1} width={rightWidth}>
        <Text bold color={section === 'result' && focused ? 'cyan' : undefined} wrap="truncate-end">
          {resultTitle(run)}
        </Text>
      </Box>
      <ResultView
        run={run}
        rows={gql.tree.rows()}
        selected={gql.tree.selected()}
        start={treeStart}
        active={focused && section === 'result'}
        width={rightWidth}
        height={resultHeight}
      />
    </Box>
  );

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box height={1} width={width}>
        <Text wrap="truncate-end">
          <Text dimColor>
            {where ? toTerminalLine(where) : schema.state === 'loading' ? 'connecting…' : 'not connected'}
            {schema.state === 'ready' ? (emptyHint ? ' · nothing to serve' : completionReady ? ' · schema loaded, tab completes' : ' · schema loaded') : ''}
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
            {keyLine('graphql', editing ? 'edit' : 'browse')}
          </Text>
        </Box>
      )}
    </Box>
  );
}

export const graphqlPane: PaneDefinition = {
  id: 'graphql',
  title: 'GraphQL',
  Component: GraphqlPane,
};
