import React, {useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {ReaderService} from '../../../feeds/contracts.js';
import type {Ingestor} from '../../../feeds/ingestors/types.js';
import {testLines} from '../../../feeds/ingestors/test-lines.js';
import {describeError} from '../../../core/errors.js';
import {formatDate} from '../../../text/table.js';
import {plural} from '../../../text/plural.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import {useTransientMessage} from '../../hooks/useTransientMessage.js';
import {Command, matchesCommand} from '../../key/keyBindings.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import {MessageLine, type PaneMessage} from '../../components/MessageLine.js';
import type {FeedsPort} from '../../ports/feeds.js';
import {useIngestorData} from './useIngestorData.js';

type Test = {state: 'running'; ingestor: Ingestor} | {state: 'done'; ingestor: Ingestor; lines: string[]} | {state: 'failed'; ingestor: Ingestor; error: string};

const EMPTY_HINT = `none · add one: workbench ingestors add mastodon --config '{"instance": "https://mastodon.social", "hashtag": "rust"}'`;
const STATE_MARK: Record<Ingestor['status'], string> = {ok: ' ', pending: '…', degraded: '~', rate_limited: '⏸', error: '!'};

function rowText(ingestor: Ingestor): string {
  const digest = ingestor.digestMode === 'realtime' ? 'realtime' : `${ingestor.digestMode} · ${plural(ingestor.pendingDigestCount, 'pending', 'pending')}`;
  const next = ingestor.nextFetchAt ? `next ${formatDate(ingestor.nextFetchAt)}` : '';
  return `${STATE_MARK[ingestor.status]} ${String(ingestor.id).padStart(3)} ${ingestor.network.padEnd(8)} ${ingestor.status.padEnd(12)} ${digest.padEnd(22)} ${next.padEnd(22)} ${ingestor.title}`;
}

/**
 * The Feeds pane's ingestors (`i`): each with its status (and why, when it is not ok) and its
 * pending digest count; `t` runs a test cycle and shows kept and dropped statuses with their
 * scores and the reasons behind them; `R` runs a cycle now. Through the feeds port's reader, the
 * ReaderService `workbench ingestors` uses.
 */
export function IngestorView(props: {port: FeedsPort; reader: ReaderService | undefined; focused: boolean; width: number; height: number; onClose: () => void}): React.JSX.Element {
  const {port, reader, focused, width, height, onClose} = props;
  const data = useIngestorData(port, reader, height > 0);
  const [selected, setSelected] = useState(0);
  // Keys of one read reach the handler before the next render: `k t` must test the row `k` moved to.
  const selectedNow = useRef(0);
  // `t` then `j` in one read scrolls the test `t` opened.
  const [test, testNow, setTest] = useKeyState<Test | undefined>(undefined);
  const [scroll, setScroll] = useState(0);
  const [message, setMessage] = useTransientMessage();
  const start = useRef(0);
  const testing = useRef<number | undefined>(undefined);

  const ingestors = data.data ?? [];
  const position = Math.max(0, Math.min(ingestors.length - 1, selected));
  const current = ingestors[position];

  const runTest = async (ingestor: Ingestor) => {
    if (!reader) return;
    testing.current = ingestor.id;
    setScroll(0);
    setTest({state: 'running', ingestor});
    try {
      const result = await reader.testIngestor({id: ingestor.id});
      if (testing.current === ingestor.id) setTest({state: 'done', ingestor, lines: testLines(result)});
    } catch (error) {
      if (testing.current === ingestor.id) setTest({state: 'failed', ingestor, error: describeError(error)});
    }
  };

  const runNow = async (ingestor: Ingestor) => {
    if (!reader) return;
    setMessage({kind: 'info', text: `running ${ingestor.title}…`});
    try {
      const {newArticles} = await reader.refresh(ingestor.feedId);
      setMessage({kind: 'info', text: `${ingestor.title}: ${plural(newArticles, 'new status', 'new statuses')}`});
    } catch (error) {
      setMessage({kind: 'error', text: `${ingestor.title}: ${describeError(error)}`});
    }
    data.refresh();
  };

  const bodyRows = Math.max(0, height - 2);
  useKeypress(
    (press) => {
      const test = testNow();
      if (test) {
        const lines = test.state === 'done' ? test.lines.length : 0;
        const scrollBy = (step: number) => setScroll((value) => Math.max(0, Math.min(Math.max(0, lines - bodyRows), value + step)));
        if (matchesCommand(Command.UP, press)) scrollBy(-1);
        else if (matchesCommand(Command.DOWN, press)) scrollBy(1);
        else if (matchesCommand(Command.PAGE_UP, press)) scrollBy(-bodyRows);
        else if (matchesCommand(Command.PAGE_DOWN, press) || matchesCommand(Command.FEEDS_PAGE_DOWN, press)) scrollBy(bodyRows);
        else if (matchesCommand(Command.BACK, press) || matchesCommand(Command.QUIT, press)) {
          testing.current = undefined;
          setTest(undefined);
        } else return false;
        return true;
      }
      const clamp = (value: number) => Math.max(0, Math.min(ingestors.length - 1, value));
      const move = (step: number) => {
        selectedNow.current = clamp(selectedNow.current + step);
        setSelected(selectedNow.current);
      };
      const chosen = ingestors[clamp(selectedNow.current)];
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.FEEDS_TEST_INGESTOR, press) && chosen) void runTest(chosen);
      else if (matchesCommand(Command.FEEDS_REFRESH, press) && chosen) void runNow(chosen);
      else if (matchesCommand(Command.FEEDS_INGESTORS, press) || matchesCommand(Command.BACK, press)) onClose();
      else return false;
      return true;
    },
    {isActive: focused, priority: KeyPriority.PANE},
  );

  if (test) {
    const lines = test.state === 'done' ? test.lines.slice(scroll, scroll + bodyRows) : [test.state === 'running' ? 'running a test cycle (nothing is stored)…' : test.error];
    return (
      <Box width={width} height={height} flexDirection="column" overflowY="hidden">
        <Text bold color={focused ? 'cyan' : undefined} wrap="truncate-end">
          Test of ingestor {test.ingestor.id} · {test.ingestor.title}
        </Text>
        <Box height={bodyRows} flexDirection="column" overflowY="hidden">
          {lines.map((line, index) => (
            <Text
              key={index}
              color={test.state === 'failed' ? 'red' : line === 'kept:' ? 'green' : line === 'dropped:' ? 'yellow' : undefined}
              dimColor={/^ {10}/.test(line)}
              wrap="truncate-end"
            >
              {line || ' '}
            </Text>
          ))}
        </Box>
        <Text dimColor wrap="truncate-end">
          ↑↓ pgup pgdn scroll · esc back to the ingestors
        </Text>
      </Box>
    );
  }

  const messages: PaneMessage[] = [];
  if (data.error) messages.push({kind: 'error', text: data.error});
  if (message) messages.push(message);
  if (current?.statusMessage)
    messages.push({kind: current.status === 'error' || current.status === 'rate_limited' ? 'error' : 'info', text: `${current.title}: ${current.statusMessage}`});
  const shownMessages = messages.slice(0, 2);
  const listRows = Math.max(0, height - 1 - shownMessages.length);
  start.current = listWindowStart(position, ingestors.length, listRows, start.current);

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Text bold color={focused ? 'cyan' : undefined} wrap="truncate-end">
        Ingestors ({ingestors.length})
      </Text>
      {shownMessages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      <Box height={listRows} flexDirection="column" overflowY="hidden">
        {data.data === undefined && !data.error && <Text dimColor>loading…</Text>}
        {data.data !== undefined && ingestors.length === 0 && (
          <Text dimColor wrap="truncate-end">
            {EMPTY_HINT}
          </Text>
        )}
        {ingestors.slice(start.current, start.current + listRows).map((ingestor, offset) => {
          const index = start.current + offset;
          const isSelected = index === position;
          return (
            <Box key={ingestor.id} height={1} width={width}>
              <Text
                bold={isSelected}
                color={ingestor.status === 'error' ? 'red' : ingestor.status === 'rate_limited' ? 'yellow' : undefined}
                inverse={isSelected && focused}
                wrap="truncate-end"
              >
                {isSelected ? '▸' : ' '}
                {rowText(ingestor)}
              </Text>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
