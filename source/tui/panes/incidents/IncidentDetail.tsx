import React, {useEffect, useState} from 'react';
import {Box, Text} from 'ink';
import {shownAge} from '../../text/age.js';
import {variantsLine, type Incident} from '../../../incidents/incidents.js';
import {isSkippedFrame, parseFrame} from '../../../incidents/stack.js';
import {storyLines} from '../../../incidents/story-format.js';
import {usePorts} from '../../contexts/PortsContext.js';
import {outputAround, type OutputAround} from './outputAround.js';
import {Command, lineLabel} from '../../key/keyBindings.js';

/** Frames shown under "Stack"; `+N more` says how many were left out. */
const FRAMES_SHOWN = 8;

/** The process an incident came from (`process:<id>`), if any. */
export function processIdOf(incident: Pick<Incident, 'source'>): string | undefined {
  return incident.source.startsWith('process:') ? incident.source.slice('process:'.length) : undefined;
}

function Field({name, value}: {name: string; value: string}): React.JSX.Element | null {
  if (!value) return null;
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{name.padEnd(10)}</Text>
      {value}
    </Text>
  );
}

function Heading({children}: {children: string}): React.JSX.Element {
  return (
    <Text bold underline>
      {children}
    </Text>
  );
}

/** The output ring's lines around the incident, fetched when the detail opens (and when the process prints more). */
function useOutputAround(incident: Incident): {around?: OutputAround; state: 'loading' | 'gone' | 'shown' | 'none'} {
  const ports = usePorts();
  const id = processIdOf(incident);
  const [around, setAround] = useState<OutputAround | null>();
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    const load = () =>
      ports.processes
        .output(id, 5000)
        .then((output) => live && setAround(outputAround(output, incident.message) ?? null))
        .catch(() => live && setAround(null));
    void load();
    return () => {
      live = false;
    };
  }, [ports, id, incident.message, incident.last_seen]);
  if (id === undefined) return {state: 'none'};
  if (around === undefined) return {state: 'loading'};
  return around === null ? {state: 'gone'} : {around, state: 'shown'};
}

/**
 * Enter on an incident: what the inbox knows about it (message in full, location, run, variants),
 * the stack the scanner saw (application frames bright, library frames dim) and the process
 * output around it, with the key that opens the location in $EDITOR.
 */
export function IncidentDetail({
  incident,
  now,
  width,
  height,
  scroll,
}: {
  incident: Incident;
  now: number;
  width: number;
  height: number;
  /** Rows scrolled down (↑/↓ in the detail); clamped to what there is. */
  scroll: number;
}): React.JSX.Element {
  const {around, state} = useOutputAround(incident);
  const frames = incident.frames ?? [];
  const variants = variantsLine(incident);
  // Page error, failing request and server exception joined into one incident (story.ts): each part with its frames.
  const story = incident.story ? storyLines(incident.story, true) : [];
  // Rows the content takes, near enough to stop scrolling past its end (the message may wrap).
  const rows = 8 + Math.ceil(incident.message.length / Math.max(1, width)) + Math.min(frames.length, FRAMES_SHOWN + 1) + story.length + (around?.lines.length ?? 1);
  const top = Math.max(0, Math.min(scroll, rows - height));
  return (
    <Box width={width} height={height} flexDirection="column" overflowY="hidden">
      <Box flexDirection="column" flexShrink={0} marginTop={-top}>
        <Text wrap="truncate-end">
          {incident.severity === 'error' ? <Text color="red">✖ </Text> : <Text color="yellow">▲ </Text>}
          <Text bold>{incident.category || incident.severity}</Text>
          <Text dimColor>{`  ${incident.count}x · last seen ${shownAge(now, Date.parse(incident.last_seen))} ago (${incident.last_seen})`}</Text>
        </Text>
        <Text dimColor wrap="truncate-end">
          {incident.location ? `${lineLabel(Command.INCIDENTS_EDIT)} open ${incident.location} in $EDITOR · ` : ''}
          {`${lineLabel(Command.UP)}${lineLabel(Command.DOWN)} scroll · ${lineLabel(Command.BACK)} back`}
        </Text>
        <Field name="source" value={incident.source} />
        <Field name="location" value={incident.location} />
        <Field name="page" value={incident.page} />
        <Field name="run" value={incident.run === undefined ? '' : `${incident.run} (the process was restarted since)`} />
        <Field name="part of" value={incident.part_of ? `incident ${incident.part_of} (its story: the page error, this request, the server's exception)` : ''} />
        <Text wrap="wrap">{incident.message}</Text>
        {variants && <Text wrap="truncate-end">{variants}</Text>}
        {story.length > 0 && <Heading>{story[0]!.replace(/^story/, 'Story').replace(/:$/, '')}</Heading>}
        {story.slice(1).map((line, index) => (
          <Text key={`story-${index}`} dimColor={line.startsWith('             ')} wrap="truncate-end">
            {line}
          </Text>
        ))}
        {frames.length > 0 && <Heading>Stack</Heading>}
        {frames.slice(0, FRAMES_SHOWN).map((frame, index) => {
          const parsed = parseFrame(frame);
          const library = parsed !== undefined && isSkippedFrame(parsed.location);
          return (
            <Text key={index} dimColor={library} wrap="truncate-end">
              {`  ${frame}`}
            </Text>
          );
        })}
        {frames.length > FRAMES_SHOWN && <Text dimColor>{`  +${frames.length - FRAMES_SHOWN} more`}</Text>}
        {state !== 'none' && <Heading>Output around it</Heading>}
        {state === 'loading' && <Text dimColor>loading…</Text>}
        {state === 'gone' && <Text dimColor>the output ring no longer holds it</Text>}
        {around?.lines.map((line, index) => (
          <Text key={index} bold={index === around.at} dimColor={index !== around.at} wrap="truncate-end">
            {`${index === around.at ? '›' : ' '} ${line}`}
          </Text>
        ))}
      </Box>
    </Box>
  );
}
