import {accessSync, constants, statSync} from 'node:fs';
import type {Browser} from 'playwright-core';
import {describeError, WorkbenchError} from '../core/errors.js';

/** Where Debian's and Ubuntu's `chromium` package puts the browser; workbench never downloads one. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/**
 * The flags of every Chromium workbench starts: headless, no sandbox (containers and CI run as
 * root), and nothing that phones home or updates itself, so a run touches only the page it was sent to.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** The browser binary: WORKBENCH_CHROMIUM when set (another Chromium or a Chrome), else /usr/bin/chromium. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.WORKBENCH_CHROMIUM || DEFAULT_CHROMIUM;
}

/** Whether the browser binary is there and may be run; the reason when not. */
export function chromiumProblem(path = chromiumPath()): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `Chromium is not installed (no ${path})` : `${path} cannot be run (${code ?? describeError(error)})`;
  }
}

export interface LaunchOptions {
  /** How long Chromium may take to start (default 30 s). */
  timeoutMs?: number;
}

/**
 * Starts headless Chromium through playwright-core: the one launcher of everything in workbench
 * that drives a browser. Each launch gets a fresh temporary profile (playwright creates it and
 * removes it at close), so no state leaks between runs or from the user's own browser. A missing
 * binary is a WorkbenchError that says how to install one.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  const problem = chromiumProblem(executablePath);
  if (problem) {
    throw new WorkbenchError(
      'browser_unavailable',
      `${problem}: install it with "sudo apt-get install chromium" (Debian/Ubuntu), or point WORKBENCH_CHROMIUM at a Chromium or Chrome binary`,
    );
  }
  // Loaded on first use: playwright-core is large, and most commands never start a browser.
  const {chromium} = await import('playwright-core');
  try {
    return await chromium.launch({executablePath, args: [...CHROMIUM_ARGS], headless: true, timeout: options.timeoutMs ?? 30_000});
  } catch (error) {
    throw new WorkbenchError('browser_unavailable', `Chromium (${executablePath}) did not start: ${launchReason(error)}`);
  }
}

/** Runs `drive` with a fresh browser and closes it afterwards, whatever happened. */
export async function withChromium<T>(drive: (browser: Browser) => Promise<T>, options: LaunchOptions = {}): Promise<T> {
  const browser = await launchChromium(options);
  try {
    return await drive(browser);
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/**
 * The useful line of a playwright error: its messages start with the method (`page.goto: `) and
 * go on with a call log; a user needs the reason in between.
 */
export function playwrightReason(error: unknown): string {
  return describeError(error)
    .replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '')
    .trim();
}

/** Why a launch failed: playwright's reason, plus what the browser itself wrote to stderr (its first lines). */
function launchReason(error: unknown): string {
  const logs = String((error as Error)?.message ?? '').split('\nCall log:')[0] ?? '';
  const said = [...logs.matchAll(/^\[pid=\d+\]\[err\] (.+)$/gm)].map((match) => match[1]!.trim()).filter(Boolean);
  return said.length ? `${playwrightReason(error)} (it said: ${said.slice(0, 2).join(' / ').slice(0, 300)})` : playwrightReason(error);
}
