import React, {useRef} from 'react';
import {Box, Text} from 'ink';
import type {ChannelSummary, ProxiedFeedStatus} from '../../../gateway/types.js';
import {describeError} from '../../../core/errors.js';
import {clip, formatDate} from '../../../text/table.js';
import {plural} from '../../../text/plural.js';
import {useKeypress} from '../../hooks/useKeypress.js';
import {useKeyState} from '../../hooks/useKeyState.js';
import {useTransientMessage} from '../../hooks/useTransientMessage.js';
import {Command, matchesCommand} from '../../key/keyBindings.js';
import {KeyPriority} from '../../key/keyPriority.js';
import {listWindowStart} from '../../layouts/listWindow.js';
import {MessageLine, type PaneMessage} from '../../components/MessageLine.js';
import type {GatewayPort} from '../../ports/gateway.js';
import {useGatewayData} from './useGatewayData.js';

type Row = {kind: 'heading'; text: string} | {kind: 'feed'; feed: ProxiedFeedStatus} | {kind: 'channel'; channel: ChannelSummary} | {kind: 'note'; text: string};

const when = (iso: string | null) => (iso ? formatDate(iso) : '-');

/** Stale: the origin failed since the last good poll and the last good copy is served; pending: no good copy yet. */
function feedState(feed: ProxiedFeedStatus): {mark: string; word: string} {
  if (feed.stale) return {mark: '!', word: 'stale'};
  return feed.lastSuccessAt ? {mark: ' ', word: 'ok'} : {mark: '…', word: 'pending'};
}

function rows(feeds: ProxiedFeedStatus[], channels: ChannelSummary[]): Row[] {
  return [
    {kind: 'heading', text: `Proxied feeds (${feeds.length})`},
    ...(feeds.length
      ? feeds.map((feed): Row => ({kind: 'feed', feed}))
      : [{kind: 'note', text: 'none · declare one in .workbench.kdl: gateway { feed "<name>" origin="<url>" }'} as Row]),
    {kind: 'heading', text: `Channels (${channels.length})`},
    ...(channels.length ? channels.map((channel): Row => ({kind: 'channel', channel})) : [{kind: 'note', text: 'none · workbench channels create --title <title>'} as Row]),
  ];
}

function rowText(row: Row, nameWidth: number): string {
  if (row.kind === 'heading' || row.kind === 'note') return row.text;
  if (row.kind === 'feed') {
    const {feed} = row;
    const state = feedState(feed);
    return `${state.mark} ${clip(feed.name, nameWidth).padEnd(nameWidth)}  ${state.word.padEnd(7)} ${plural(feed.itemCount, 'item').padStart(9)} · ok ${when(feed.lastSuccessAt)} · next ${when(feed.nextPollAt)} · ${feed.origin}`;
  }
  const {channel} = row;
  return `  ${clip(channel.title, nameWidth).padEnd(nameWidth)}  ${plural(channel.itemCount, 'item').padStart(17)} · expires ${formatDate(channel.expiresAt)} · ${channel.feedUrl}`;
}

/**
 * The Feeds pane's gateway view (`g`): the running gateway's proxied feeds, stale ones marked `!`
 * with their last error, and its live channels — through the gateway port, the client the
 * `workbench gateway` and `channels` commands use. `R` forces a poll (REFRESH_TOKEN); `g` or Esc go back.
 */
export function GatewayView({port, focused, width, height, onClose}: {port: GatewayPort; focused: boolean; width: number; height: number; onClose: () => void}): React.JSX.Element {
  const data = useGatewayData(port, height > 0);
  // `j R` in one read refreshes the row `j` reached.
  const [selected, selectedNow, setSelected] = useKeyState(0);
  const [message, setMessage] = useTransientMessage();
  const start = useRef(0);

  const all = data.data ? rows(data.data.feeds, data.data.channels) : [];
  const selectable = all.map((row, index) => (row.kind === 'feed' || row.kind === 'channel' ? index : -1)).filter((index) => index >= 0);
  const position = Math.max(0, Math.min(selectable.length - 1, selected));
  const selectedRow = all[selectable[position] ?? -1];
  const nameWidth = Math.min(24, Math.max(4, ...all.map((row) => (row.kind === 'feed' ? row.feed.name.length : row.kind === 'channel' ? row.channel.title.length : 0))));

  const refresh = async (feed: ProxiedFeedStatus) => {
    setMessage({kind: 'info', text: `refreshing ${feed.name}…`});
    try {
      const result = await port.refresh(feed.name);
      setMessage({kind: 'info', text: `${feed.name}: ${result.status === 'ok' ? 'refreshed' : result.status}${result.message ? ` (${result.message})` : ''}`});
    } catch (error) {
      setMessage({kind: 'error', text: `refresh ${feed.name} failed: ${describeError(error)}`});
    }
    data.refresh();
  };

  useKeypress(
    (press) => {
      const clamp = (value: number) => Math.max(0, Math.min(selectable.length - 1, value));
      const move = (step: number) => setSelected(clamp(clamp(selectedNow()) + step));
      const row = all[selectable[clamp(selectedNow())] ?? -1];
      if (matchesCommand(Command.UP, press)) move(-1);
      else if (matchesCommand(Command.DOWN, press)) move(1);
      else if (matchesCommand(Command.PAGE_UP, press)) move(-10);
      else if (matchesCommand(Command.PAGE_DOWN, press)) move(10);
      else if (matchesCommand(Command.FEEDS_REFRESH, press) && row?.kind === 'feed') void refresh(row.feed);
      else if (matchesCommand(Command.FEEDS_GATEWAY, press) || matchesCommand(Command.BACK, press)) onClose();
      else return false;
      return true;
    },
    {isActive: focused, priority: KeyPriority.PANE},
  );

  const messages: PaneMessage[] = [];
  if (data.error) messages.push({kind: 'error', text: data.error});
  if (message) messages.push(message);
  if (selectedRow?.kind === 'feed' && selectedRow.feed.lastError && selectedRow.feed.stale)
    messages.push({kind: 'error', text: `${selectedRow.feed.name}: ${selectedRow.feed.lastError}`});
  const shownMessages = messages.slice(0, 2);
  const listRows = Math.max(0, height - 1 - shownMessages.length);
  start.current = listWindowStart(selectable[position] ?? 0, all.length, listRows, start.current);

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box height={1} width={width}>
        <Text bold color={focused ? 'cyan' : undefined} wrap="truncate-end">
          Gateway{data.data ? ` · ${data.data.url}` : ''}
        </Text>
      </Box>
      {shownMessages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      <Box height={listRows} flexDirection="column" overflowY="hidden">
        {data.data === undefined && !data.error && <Text dimColor>loading…</Text>}
        {all.slice(start.current, start.current + listRows).map((row, offset) => {
          const index = start.current + offset;
          const isSelected = index === selectable[position];
          const stale = row.kind === 'feed' && row.feed.stale;
          return (
            <Box key={index} height={1} width={width}>
              <Text
                bold={row.kind === 'heading' || isSelected}
                dimColor={row.kind === 'note'}
                color={stale ? 'red' : undefined}
                inverse={isSelected && focused}
                wrap="truncate-end"
              >
                {row.kind === 'heading' || row.kind === 'note' ? '' : isSelected ? '▸' : ' '}
                {rowText(row, nameWidth)}
              </Text>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
