import type {PermissionAnswer, PermissionRequest, TranscriptRow} from '../../../agent/types.js';

/**
 * A conversation as the chat faces keep it: the session's header row, finished turns (never
 * changed once finished, so their drawn lines are computed once) and the live turn.
 */
export interface Turn {
  id: number;
  prompt: string;
  rows: TranscriptRow[];
  /** Text streamed since the last row: what the model is writing right now. */
  streamed: string;
  done: boolean;
}

export interface PendingPermission {
  request: PermissionRequest;
  answer(answer: PermissionAnswer): void;
}

export interface Usage {
  input: number;
  output: number;
}

/** Token counts summed over every usage row of the conversation (each turn closes with one). */
export function usageOf(turns: readonly Turn[]): Usage {
  let input = 0;
  let output = 0;
  for (const turn of turns)
    for (const row of turn.rows)
      if (row.kind === 'usage') {
        input += row.input;
        output += row.output;
      }
  return {input, output};
}

/** The newest answer of the conversation, for `y` (copy). */
export function lastAnswer(turns: readonly Turn[]): string | undefined {
  for (let index = turns.length - 1; index >= 0; index--) {
    const answer = [...turns[index]!.rows].reverse().find((row) => row.kind === 'answer');
    if (answer?.kind === 'answer') return answer.text;
  }
  return undefined;
}

/**
 * The turn after one event. A finished `text` or `answer` row carries the text that was streamed
 * before it, so the streamed text goes when the row comes (it is not shown twice).
 */
export function withRow(turn: Turn, row: TranscriptRow): Turn {
  const carriesStream = row.kind === 'answer' || row.kind === 'text';
  return {...turn, rows: [...turn.rows, row], streamed: carriesStream ? '' : turn.streamed};
}

export function withDelta(turn: Turn, text: string): Turn {
  return {...turn, streamed: turn.streamed + text};
}
