import React from 'react';
import {Box, Text} from 'ink';
import {toTerminalLine} from '../../../text/terminal-safe.js';
import type {PermissionRequest} from '../../../agent/types.js';
import {Command, lineLabel, matchesCommand, type Keypress} from '../../key/keyBindings.js';
import {keyView} from '../../key/keyTable.js';

const PREVIEW_LINES = 8;

/** The lines a permission prompt takes for a request (the pane makes room for them). */
export function permissionRows(request: PermissionRequest, maxRows = Number.POSITIVE_INFINITY): number {
  return Math.min(maxRows, 2 + previewLines(request).length);
}

function previewLines(request: PermissionRequest): string[] {
  if (!request.preview) return [];
  const lines = request.preview.replace(/\n$/, '').split('\n');
  return lines.length > PREVIEW_LINES ? [...lines.slice(0, PREVIEW_LINES - 1), `… ${lines.length - PREVIEW_LINES + 1} more lines`] : lines;
}

const VERB: Record<PermissionRequest['tool'], string> = {read: 'read', edit: 'edit', shell: 'run', workbench: 'use'};

/**
 * An `ask` of the permission rules, inline where the conversation ends: what the tool wants to
 * do, why the rules ask (decision.reason), what the user agrees to (the diff, the command line),
 * and the three answers.
 */
export function PermissionPrompt({request, width, maxRows}: {request: PermissionRequest; width: number; maxRows?: number}): React.JSX.Element {
  const preview = previewLines(request).slice(0, maxRows === undefined ? undefined : Math.max(0, maxRows - 2));
  return (
    <Box flexDirection="column" width={width}>
      <Text color="yellow" wrap="truncate-end">
        ? {VERB[request.tool]} {toTerminalLine(request.argument)}
        <Text dimColor> — {toTerminalLine(request.decision.reason)}</Text>
      </Text>
      {preview.map((line, index) => (
        <Text key={index} dimColor={!/^[+-]/.test(line)} color={line.startsWith('+') ? 'green' : line.startsWith('-') ? 'red' : undefined} wrap="truncate-end">
          {'  '}
          {toTerminalLine(line) || ' '}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {keyView('chat', 'permission').rows.map((row, index) => (
          <React.Fragment key={row.command}>
            {index > 0 ? ' ' : ''}
            <Text bold>[{lineLabel(row.command).split('/')[0]}]</Text> {row.hint}
          </React.Fragment>
        ))}
      </Text>
    </Box>
  );
}

/** The answer a key gives the prompt, or undefined for any other key. */
export function permissionAnswerOf(press: Keypress): 'allow' | 'always' | 'deny' | undefined {
  if (matchesCommand(Command.CHAT_ALLOW, press)) return 'allow';
  if (matchesCommand(Command.CHAT_ALWAYS, press)) return 'always';
  if (matchesCommand(Command.CHAT_DENY, press)) return 'deny';
  return undefined;
}
