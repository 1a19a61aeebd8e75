import {describe, expect, it} from 'vitest';
import {formatRow, formatToolDetail, toolLine} from '../../../source/agent/loop/transcript-text.js';

// The transcript rows as text: spec 1 "Agent module cmdlets" — first `auth: <which credential step
// won> -> <endpoint>` (a transport tag on chat-completions; a sign-in's provider, expiry in UTC and
// base), tool-call rows (read, edit, shell with exit code), the answer, a closing token row.

describe('formatRow', () => {
  it('writes the auth row as the spec says, the tag only on chat-completions', () => {
    expect(formatRow({kind: 'auth', step: 'environment', source: 'MESSAGES_API_KEY', endpoint: 'https://api.example.com/v1/messages', transport: 'messages'})).toEqual([
      'auth: MESSAGES_API_KEY -> https://api.example.com/v1/messages',
    ]);
    expect(formatRow({kind: 'auth', step: 'argument', source: '--api-key', endpoint: 'http://127.0.0.1:4000/v1/chat/completions', transport: 'chat-completions'})).toEqual([
      'auth: --api-key -> http://127.0.0.1:4000/v1/chat/completions [chat-completions]',
    ]);
  });

  it('names a sign-in: provider, expiry as UTC whatever the zone the timestamp came in, base address', () => {
    const row = formatRow({
      kind: 'auth',
      step: 'sign-in',
      source: 'sign-in gateway',
      endpoint: 'https://gw.example/api/v1/chat/completions',
      transport: 'chat-completions',
      signIn: {provider: 'gateway', expiresAt: '2026-11-24T12:00:00+02:00', baseUrl: 'https://gw.example/api/v1', refreshed: false},
    });
    expect(row).toEqual([
      'auth: sign-in gateway -> https://gw.example/api/v1/chat/completions [chat-completions] (sign-in gateway, expires 2026-11-24 10:00:00 UTC, base https://gw.example/api/v1)',
    ]);
    const never = formatRow({
      kind: 'auth',
      step: 'sign-in',
      source: 'sign-in gw',
      endpoint: 'e',
      transport: 'chat-completions',
      signIn: {provider: 'gw', expiresAt: null, baseUrl: 'b', refreshed: true},
    });
    expect(never[0]).toContain('(sign-in gw, no expiry, base b, refreshed)');
  });

  it('writes tool rows on one line with ✓ or ✗, the exit code once, the refusal', () => {
    expect(formatRow({kind: 'tool', callId: '1', tool: 'read_file', summary: 'read src/a.ts (42 lines)'})).toEqual(['✓ read src/a.ts (42 lines)']);
    expect(formatRow({kind: 'tool', callId: '2', tool: 'run_shell', summary: 'shell npm test → exit 1', exitCode: 1})).toEqual(['✗ shell npm test → exit 1']);
    expect(formatRow({kind: 'tool', callId: '3', tool: 'run_shell', summary: 'shell make', exitCode: 2})).toEqual(['✗ shell make (exit 2)']);
    expect(formatRow({kind: 'tool', callId: '4', tool: 'edit_file', summary: 'edit src/a.ts', error: 'denied by .workbench.kdl:3'})).toEqual([
      '✗ edit src/a.ts: denied by .workbench.kdl:3',
    ]);
    expect(toolLine({kind: 'tool', callId: '5', tool: 'run_shell', summary: 'shell ls → exit 0', exitCode: 0})).toBe('✓ shell ls → exit 0');
  });

  it('writes the answer line by line, the token row, errors, plans and agent logs', () => {
    expect(formatRow({kind: 'answer', text: 'Done.\nTwo lines.'})).toEqual(['Done.', 'Two lines.']);
    expect(formatRow({kind: 'usage', input: 123, output: 45, turns: 2})).toEqual(['tokens: 123 in, 45 out']);
    expect(formatRow({kind: 'error', code: 'cancelled', message: 'cancelled'})).toEqual(['error: cancelled']);
    expect(formatRow({kind: 'plan', entries: [{content: 'read the code', status: 'completed'}]})).toEqual(['plan:', '  [completed] read the code']);
    expect(formatRow({kind: 'agent-log', text: 'login failed\nretry'})).toEqual(['agent: login failed', 'agent: retry']);
  });

  it('never passes an escape sequence or a control character from outside text to the terminal', () => {
    const hostile = 'ok\u001b]52;c;ZXZpbA==\u0007\u001b[2J done\u202e';
    const all = [
      ...formatRow({kind: 'answer', text: hostile}),
      ...formatRow({kind: 'tool', callId: '1', tool: 'run_shell', summary: hostile, detail: hostile}),
      ...formatToolDetail({kind: 'tool', callId: '1', tool: 'run_shell', summary: 's', detail: `${hostile}\n\tindented`}),
      ...formatRow({kind: 'notice', text: hostile}),
    ];
    for (const line of all) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(all[0]).toBe('ok done');
  });

  it('gives a tool row’s detail line by line, with the rule that decided', () => {
    expect(
      formatToolDetail({
        kind: 'tool',
        callId: '1',
        tool: 'edit_file',
        summary: 'edit a (+1 -1)',
        detail: '-a\n+b\n',
        decision: {action: 'allow', rule: null, reason: 'allowed by --yes'},
      }),
    ).toEqual(['-a', '+b', '(allowed by --yes)']);
  });
});
