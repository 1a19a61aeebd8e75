import {writeSync} from 'node:fs';
import type {ReactElement} from 'react';
import {runTask, type TextCommand} from './command-output.js';

/**
 * What pastel gets when it imports ink's `render` and @inkjs/ui's `StatusMessage` in the built CLI
 * (see scripts/build.mjs). pastel renders every command with ink, but text commands need no
 * terminal UI: they run directly, and ink (~120 ms to load) is loaded only for a component that
 * really renders.
 */
export function render(element: ReactElement<{Component?: TextCommand<unknown>; commandProps?: unknown; children?: unknown}>): void {
  const {Component, commandProps} = element.props ?? {};
  if (typeof Component === 'function' && typeof Component.task === 'function') {
    const task = Component.task;
    void runTask(() => task(commandProps), Component.json?.(commandProps) ?? false).finally(() => setImmediate(() => process.exit()));
    return;
  }
  if (element.type === StatusMessage) {
    // pastel shows a flag that fails its schema this way, then exits at once: write synchronously.
    writeSync(2, `workbench: ${flagSentence(String(element.props.children))}\n`);
    return;
  }
  void import('ink').then((ink) => ink.render(element));
}

/** pastel's error line for flags that fail their schema; printed by render() above. */
export function StatusMessage(_props: {variant?: string; children?: unknown}): null {
  return null;
}

/** zod's words for a flag given without its value (`--title` at the end of the line), as a sentence naming the flag. */
export function flagSentence(message: string): string {
  return message.replace(
    /Invalid input: expected string, received boolean at "([A-Za-z0-9]+)"/g,
    (_all, name: string) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} needs a value`,
  );
}
