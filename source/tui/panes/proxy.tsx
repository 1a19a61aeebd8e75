import React, {useMemo, useRef, useState} from 'react';
import {Box, Text} from 'ink';
import type {ExecResult, PageSession, ProxyInfo, TrafficEntry} from '../../devproxy/types.js';
import {describeError} from '../../core/errors.js';
import {usePorts} from '../contexts/PortsContext.js';
import {useSnapshot} from '../contexts/SnapshotContext.js';
import {useFilterInput, matchesFilter} from '../hooks/useFilterInput.js';
import {useKeypress} from '../hooks/useKeypress.js';
import {useNow} from '../hooks/useNow.js';
import {useStatusHints} from '../hooks/useStatusHints.js';
import {useTransientMessage} from '../hooks/useTransientMessage.js';
import {useWatched} from '../hooks/useWatched.js';
import {Command, keyLabel, matchesCommand, moveStep} from '../key/keyBindings.js';
import {barHints, keyLine} from '../key/keyTable.js';
import {KeyPriority} from '../key/keyPriority.js';
import {listWindowStart} from '../layouts/listWindow.js';
import type {ProxyChoice} from '../ports/proxies.js';
import {FilterInput} from '../components/FilterInput.js';
import {MessageLine, type PaneMessage} from '../components/MessageLine.js';
import {LinePrompt} from './feeds/LinePrompt.js';
import {detailLines, type DetailLine} from './proxy/detailLines.js';
import {PagesList, pageAges} from './proxy/PagesList.js';
import {ProxyPicker} from './proxy/ProxyPicker.js';
import {ScrolledLines} from './proxy/ScrolledLines.js';
import {execLines, shownPage, shownProxy} from './proxy/shown.js';
import {CLASS_FILTERS, matchesClass, matchesType, nextInCycle, statusClass, TYPE_FILTERS, type ClassFilter, type TypeFilter} from './proxy/statusClass.js';
import {TrafficRow} from './proxy/TrafficRow.js';
import {useTraffic} from './proxy/useTraffic.js';
import type {PaneDefinition, PaneProps} from './types.js';

type Exec = {code: string; state: 'running'} | {code: string; state: 'done'; results: ExecResult[]} | {code: string; state: 'failed'; error: string};

/** The fields the `/` filter looks in. */
function filterFields(entry: TrafficEntry): Array<string | undefined> {
  switch (entry.type) {
    case 'http':
      return [entry.url, entry.method, String(entry.status), entry.contentType];
    case 'error':
    case 'custom':
      return [entry.message, entry.page];
    case 'diagnostic':
      return [entry.message, entry.category, entry.url];
    case 'page':
      return [entry.url, entry.title];
  }
}

function execResultLines(exec: Exec): DetailLine[] {
  const code: DetailLine = {text: `› ${exec.code}`, dim: true};
  if (exec.state === 'running') return [code, {text: 'running in the page…', dim: true}];
  if (exec.state === 'failed') return [code, {text: `✖ ${exec.error}`, colour: 'red'}];
  return [
    code,
    ...exec.results.flatMap((result, index) => {
      const shown = execLines(result);
      return [
        ...(index > 0 ? [{text: ''}] : []),
        {text: shown.heading, heading: true},
        ...(shown.ok ? shown.lines.map((text) => ({text})) : [{text: '✖ the code threw:', colour: 'red'}, ...shown.lines.map((text) => ({text, colour: 'red'}))]),
      ];
    }),
  ];
}

function ProxyHeader({proxies, current, width}: {proxies: ProxyInfo[]; current: ProxyInfo; width: number}): React.JSX.Element {
  return (
    <Box height={1} width={width}>
      <Text wrap="truncate-end">
        {proxies.length > 1 &&
          proxies.map((info) => (
            <Text key={info.id} inverse={info.id === current.id} bold={info.id === current.id}>
              {` ${info.id} `}
            </Text>
          ))}
        {proxies.length > 1 ? ' ' : ''}
        <Text bold>{proxies.length > 1 ? '' : `${current.id} `}</Text>
        <Text color="cyan">{current.url}</Text>
        <Text dimColor>{` → ${current.target}`}</Text>
      </Text>
    </Box>
  );
}

function ProxyPane({focused, width, height, compact}: PaneProps): React.JSX.Element {
  const {proxies: port} = usePorts();
  const snapshot = useSnapshot();
  const filter = useFilterInput(focused);
  const [proxyId, setProxyId] = useState<string>();
  const [view, setView] = useState<'requests' | 'pages'>('requests');
  // The selected entry's seq; undefined: follow the newest.
  const [selectedSeq, setSelectedSeq] = useState<number>();
  // The newest seq when the list stopped following: what came after is "new".
  const [pausedAt, setPausedAt] = useState(0);
  const [detail, setDetail] = useState(false);
  const [scroll, setScroll] = useState(0);
  const [classFilter, setClassFilter] = useState<ClassFilter>('all');
  const [typeFilter, setTypeFilter] = useState<TypeFilter>('all');
  const [prompting, setPrompting] = useState(false);
  const [picking, setPicking] = useState(false);
  const [exec, setExec] = useState<Exec>();
  const [message, setMessage] = useTransientMessage();
  const listStart = useRef(0);
  // The last row a detail can scroll to, as the last frame drew it: keys stop there.
  const scrollMax = useRef(0);
  const shownPages = useRef<PageSession[]>([]);
  const now = useNow((at) => shownPages.current.map((page) => pageAges(page, at)).join(' '));

  const proxies = useMemo(() => (snapshot.proxies ?? []).map(shownProxy), [snapshot.proxies]);
  const current = proxies.find((info) => info.id === proxyId) ?? proxies[0];
  const traffic = useTraffic(port, current, height > 0);
  const pages = useWatched(
    async () => (await port.pages(current!.id)).map(shownPage),
    (onChange) => port.watchTraffic(current!.id, onChange),
    [port, current?.id, current?.startedAt],
    height > 0 && view === 'pages' && current !== undefined,
  );

  const visible = traffic.entries.filter((entry) => matchesType(entry, typeFilter) && matchesClass(entry, classFilter) && matchesFilter(filter.text, ...filterFields(entry)));
  const following = selectedSeq === undefined;
  const pinnedIndex = following ? -1 : visible.findIndex((entry) => entry.seq === selectedSeq);
  // A selected entry the filter hides, or the ring dropped: the nearest one after it.
  const selectedIndex = following ? visible.length - 1 : pinnedIndex >= 0 ? pinnedIndex : visible.findIndex((entry) => entry.seq > selectedSeq);
  const selected = visible[selectedIndex < 0 ? visible.length - 1 : selectedIndex];

  const follow = () => {
    setSelectedSeq(undefined);
    setDetail(false);
  };
  const move = (step: number) => {
    if (visible.length === 0) return;
    const from = selectedIndex < 0 ? visible.length - 1 : selectedIndex;
    const to = Math.max(0, Math.min(visible.length - 1, from + step));
    // Down onto the newest entry follows again, as the output view does at its bottom.
    if (to === visible.length - 1 && step > 0) return setSelectedSeq(undefined);
    if (following) setPausedAt(traffic.entries.at(-1)?.seq ?? 0);
    setSelectedSeq(visible[to]!.seq);
  };
  const switchProxy = (step: number) => {
    if (proxies.length < 2 || !current) return;
    const index = proxies.findIndex((info) => info.id === current.id);
    setProxyId(proxies[(index + step + proxies.length) % proxies.length]!.id);
    setSelectedSeq(undefined);
    setDetail(false);
    setExec(undefined);
  };
  const resetSelection = () => {
    setSelectedSeq(undefined);
    setDetail(false);
  };

  const runExec = async (code: string) => {
    setPrompting(false);
    if (!code || !current) return;
    setScroll(0);
    setExec({code, state: 'running'});
    try {
      setExec({code, state: 'done', results: await port.exec(current.id, code)});
    } catch (error) {
      setExec({code, state: 'failed', error: describeError(error)});
    }
  };
  const start = async (choice: ProxyChoice) => {
    setPicking(false);
    setMessage({kind: 'info', text: `starting proxy ${choice.id}…`});
    try {
      const info = await port.start(choice);
      setProxyId(info.id);
      resetSelection();
      setMessage({kind: 'info', text: `started proxy ${info.id} on ${info.url}`});
    } catch (error) {
      setMessage({kind: 'error', text: `start ${choice.id} failed: ${describeError(error)}`});
    }
    snapshot.refreshProxies();
  };
  const stop = async (info: ProxyInfo) => {
    setMessage({kind: 'info', text: `stopping proxy ${info.id}…`});
    try {
      await port.stop(info.id);
      resetSelection();
      setExec(undefined);
      setMessage({kind: 'info', text: `stopped proxy ${info.id}`});
    } catch (error) {
      setMessage({kind: 'error', text: `stop ${info.id} failed: ${describeError(error)}`});
    }
    snapshot.refreshProxies();
  };

  const scrolling = detail || exec !== undefined;
  useKeypress(
    (press) => {
      const step = moveStep(press);
      if (step !== 0 && scrolling) setScroll((value) => Math.max(0, Math.min(scrollMax.current, value + step)));
      else if (step !== 0 && view === 'requests') move(step);
      else if (matchesCommand(Command.BACK, press) && (exec || detail || filter.text || message || classFilter !== 'all' || typeFilter !== 'all')) {
        if (exec) setExec(undefined);
        else if (detail) setDetail(false);
        else if (message) setMessage(undefined);
        else if (filter.text) filter.clear();
        else {
          setClassFilter('all');
          setTypeFilter('all');
        }
      } else if (matchesCommand(Command.EXPAND, press) && view === 'requests' && !scrolling && selected) {
        if (following) setPausedAt(traffic.entries.at(-1)?.seq ?? 0);
        setSelectedSeq(selected.seq);
        setScroll(0);
        setDetail(true);
      } else if (matchesCommand(Command.OUTPUT_BOTTOM, press) && !scrolling) follow();
      else if (matchesCommand(Command.OUTPUT_TOP, press) && !scrolling && visible[0]) {
        if (following) setPausedAt(traffic.entries.at(-1)?.seq ?? 0);
        setSelectedSeq(visible[0].seq);
      } else if (matchesCommand(Command.FILTER, press)) {
        setDetail(false);
        setExec(undefined);
        setView('requests');
        filter.open();
      } else if (matchesCommand(Command.PROXY_STATUS_CLASS, press)) {
        setClassFilter((value) => nextInCycle(CLASS_FILTERS, value));
        setDetail(false);
        setView('requests');
      } else if (matchesCommand(Command.PROXY_ENTRY_TYPE, press)) {
        setTypeFilter((value) => nextInCycle(TYPE_FILTERS, value));
        setDetail(false);
        setView('requests');
      } else if (matchesCommand(Command.PROXY_PAGES, press) && current) {
        setView((value) => (value === 'pages' ? 'requests' : 'pages'));
        setDetail(false);
        setExec(undefined);
      } else if (matchesCommand(Command.PROXY_EXEC, press) && current) setPrompting(true);
      else if (matchesCommand(Command.PROXY_NEXT, press)) switchProxy(1);
      else if (matchesCommand(Command.PROXY_PREV, press)) switchProxy(-1);
      else if (matchesCommand(Command.START, press)) setPicking(true);
      else if (matchesCommand(Command.STOP, press) && current) void stop(current);
      else return false;
      return true;
    },
    {isActive: focused && !picking && !prompting && !filter.editing, priority: KeyPriority.PANE},
  );

  useStatusHints(
    focused,
    filter.editing
      ? barHints('global', 'filter')
      : prompting
        ? barHints('proxy', 'exec')
        : picking
          ? barHints('global', 'picker')
          : scrolling
            ? barHints('proxy', 'detail')
            : current
              ? barHints('proxy', 'requests', proxies.length > 1 ? {} : {without: [Command.PROXY_PREV, Command.PROXY_NEXT]})
              : barHints('proxy', 'requests', {only: [Command.START]}),
  );

  if (picking) {
    return (
      <ProxyPicker
        focused={focused}
        width={width}
        height={height}
        running={proxies.map((info) => info.id)}
        onPick={(choice) => void start(choice)}
        onClose={() => setPicking(false)}
      />
    );
  }

  const messages: PaneMessage[] = [];
  if (snapshot.proxiesError) messages.push({kind: 'error', text: snapshot.proxiesError});
  else if (traffic.error) messages.push({kind: 'error', text: traffic.error});
  if (message) messages.push(message);
  const filters = [classFilter !== 'all' ? `status ${classFilter}` : '', typeFilter !== 'all' ? `type ${typeFilter}` : ''].filter(Boolean).join(' · ');
  const headerRows = (current ? 2 : 0) + (filter.editing || filter.text ? 1 : 0) + messages.length + (prompting ? 1 : 0);
  const bodyRows = Math.max(0, height - headerRows);

  const http = traffic.entries.filter((entry) => entry.type === 'http');
  const failures = http.filter((entry) => entry.type === 'http' && ['4xx', '5xx', 'failed'].includes(statusClass(entry.status))).length;
  const pageErrors = traffic.entries.filter((entry) => entry.type === 'error').length;
  const newBelow = following ? 0 : visible.filter((entry) => entry.seq > pausedAt).length;
  const state = following ? 'following' : `paused · ${keyLabel(Command.OUTPUT_BOTTOM)} follows`;

  let body: React.ReactNode;
  shownPages.current = [];
  if (!current) {
    const empty = snapshot.proxies === undefined ? (snapshot.proxiesError ? '' : 'loading…') : `no proxy running · ${keyLabel(Command.START)} starts one from .workbench.kdl`;
    body = empty ? <Text dimColor>{empty}</Text> : null;
  } else if (exec) {
    const lines = execResultLines(exec);
    scrollMax.current = Math.max(0, lines.length - (bodyRows - 1));
    body = (
      <ScrolledLines
        lines={lines}
        scroll={scroll}
        width={width}
        height={bodyRows}
        footer={`exec in ${current.id} · ${keyLine('proxy', 'detail', {without: [Command.PROXY_EXEC]})}`}
      />
    );
  } else if (view === 'pages') {
    shownPages.current = pages.data ?? [];
    body = <PagesList pages={pages.data} error={pages.error} now={now} width={width} height={bodyRows} />;
    if (pages.error) messages.push({kind: 'error', text: pages.error});
  } else if (detail && selected) {
    const lines = detailLines(selected, width);
    scrollMax.current = Math.max(0, lines.length - (bodyRows - 1));
    body = <ScrolledLines lines={lines} scroll={scroll} width={width} height={bodyRows} footer={keyLine('proxy', 'detail', {without: [Command.PROXY_EXEC]})} />;
  } else {
    const listRows = Math.max(0, bodyRows - (newBelow > 0 ? 1 : 0));
    const index = Math.max(0, visible.indexOf(selected!));
    listStart.current = following ? Math.max(0, visible.length - listRows) : listWindowStart(index, visible.length, listRows, listStart.current);
    const rows = visible.slice(listStart.current, listStart.current + listRows);
    const empty = traffic.entries.length === 0 ? `no requests yet · open ${current.url}` : 'nothing matches the filters';
    body = (
      <Box width={width} height={bodyRows} flexDirection="column" overflowY="hidden">
        {visible.length === 0 && <Text dimColor>{empty}</Text>}
        {rows.map((entry) => (
          <TrafficRow key={entry.seq} entry={entry} selected={entry === selected} focused={focused} width={width} compact={compact} />
        ))}
        {newBelow > 0 && <Text color="yellow">{`↓ ${newBelow} new · ${keyLabel(Command.OUTPUT_BOTTOM)} follows`}</Text>}
      </Box>
    );
  }

  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      {current && <ProxyHeader proxies={proxies} current={current} width={width} />}
      {current && (
        <Box height={1} width={width}>
          <Text dimColor wrap="truncate-end">
            {`${http.length} request${http.length === 1 ? '' : 's'} · `}
            <Text color={failures > 0 ? 'red' : undefined} dimColor={failures === 0}>{`${failures} failed`}</Text>
            {' · '}
            <Text color={pageErrors > 0 ? 'red' : undefined} dimColor={pageErrors === 0}>{`${pageErrors} page error${pageErrors === 1 ? '' : 's'}`}</Text>
            {traffic.missed > 0 ? ` · ${traffic.missed} not fetched` : ''}
            {filters ? <Text color="cyan">{` · ${filters}`}</Text> : ''}
            {view === 'requests' && !exec ? ` · ${state}` : ''}
          </Text>
        </Box>
      )}
      <FilterInput filter={filter} width={width} />
      {messages.map((line, index) => (
        <MessageLine key={index} message={line} width={width} />
      ))}
      {body}
      {prompting && current && (
        <LinePrompt
          label={`exec in ${current.id}:`}
          hint={keyLine('proxy', 'exec')}
          focused={focused}
          width={width}
          onSubmit={(code) => void runExec(code)}
          onCancel={() => setPrompting(false)}
        />
      )}
    </Box>
  );
}

export const proxyPane: PaneDefinition = {
  id: 'proxy',
  title: 'Proxy',
  Component: ProxyPane,
  count: (snapshot) => snapshot.proxies?.length,
};
