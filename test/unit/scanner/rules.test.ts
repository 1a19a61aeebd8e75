import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {stripAnsi} from '../../../source/text/ansi.js';
import {toGrepPattern} from '../../../source/processes/scanner/grep-pattern.js';
import {FRAGMENTS, GREP_PATTERN, RULES} from '../../../source/processes/scanner/rules.js';
import {sample, sampleNames} from './sample.js';
import {requirePackage} from '../../helpers/system-package.js';

/** One line as tools print it (colours included where they use them) for every rule. */
const EXAMPLES: Record<string, string> = {
  'tsc.clean': '[1:10:31 PM] Found 0 errors. Watching for file changes.',
  'webpack.compiled': 'webpack 5.89.0 compiled \x1b[1m\x1b[32msuccessfully\x1b[39m\x1b[22m in 640 ms',
  'next.compiled': ' \x1b[32m✓\x1b[39m Compiled /dashboard in 812ms (640 modules)',
  'vite.hmr': '\x1b[2m1:02:03 PM\x1b[22m \x1b[36m\x1b[1m[vite]\x1b[22m\x1b[39m \x1b[32mhmr update \x1b[39m\x1b[2m/src/App.tsx\x1b[22m',
  'vite.ready': '  \x1b[32m\x1b[1mVITE\x1b[22m v5.4.11\x1b[39m  \x1b[2mready in \x1b[0m\x1b[1m312\x1b[22m\x1b[2m\x1b[0m ms\x1b[22m',
  'vite.built': '\x1b[32m✓ built in 1.42s\x1b[39m',
  'java.build-success': '[INFO] BUILD SUCCESS',
  'dotnet.build-succeeded': 'Build succeeded.',
  'cargo.finished': '    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.48s',
  'esbuild.finished': '[watch] build finished, watching for changes...',
  'build.completed-in': '[bun] Build completed in 412ms',
  'build.rebuild-finished': '\x1b[32mRebuild finished\x1b[39m, watching for changes',
  'build.ok': '==> Build OK (3 targets)',
  'vite.hmr-failed': '\x1b[2m1:02:09 PM\x1b[22m \x1b[36m\x1b[1m[vite]\x1b[22m\x1b[39m \x1b[31mhmr update failed:\x1b[39m /app/src/Cart.tsx: Unexpected token (12:4)',
  'django.internal-server-error': 'Internal Server Error: /api/orders/42/',
  'flask.exception-on-request': '[2024-11-22 13:00:00,123] ERROR in app: Exception on /cart [POST]',
  'werkzeug.error-on-request': 'Error on request:',
  'python.exception-in-thread': 'Exception in thread django-main-thread:',
  'ruby.errno': 'Errno::ENOENT (No such file or directory @ rb_sysopen - config/reports.yml):',
  'java.severe': '22-Nov-2024 13:00:01.456 SEVERE [main] org.apache.catalina.core.StandardContext.startInternal One or more listeners failed to start.',
  'go.toolchain': 'go: updates to go.mod needed; to update it:',
  'eslint.stylish': "   \x1b[2m3:10\x1b[22m  \x1b[31merror\x1b[39m    'useState' is defined but never used  \x1b[2mno-unused-vars\x1b[22m",
  'yarn.error': '\x1b[31merror\x1b[39m Command failed with exit code 1.',
  'rust.aborting': '\x1b[1m\x1b[91merror\x1b[0m\x1b[1m: aborting due to 2 previous errors\x1b[0m',
  'pytest.summary': 'FAILED tests/test_cart.py::test_total - AssertionError: assert 12.5 == 13.0',
  'dotnet.failed-summary': 'Build failed with 1 error(s) in 4.7s',
  'python.traceback': 'Traceback (most recent call last):',
  'go.panic': 'panic: runtime error: index out of range [5] with length 3',
  'go.fatal-error': 'fatal error: concurrent map writes',
  'rust.panic': "thread 'main' panicked at src/main.rs:4:5:",
  'java.exception-in-thread': 'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null',
  'node.unhandled-rejection': '[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block.] {',
  'next.error': ' \x1b[31m\x1b[1m⨯\x1b[22m\x1b[39m ./src/app/page.tsx:3:1',
  'dotnet.unhandled-exception': 'Unhandled exception. System.NullReferenceException: Object reference not set to an instance of an object.',
  'ruby.exception': "/app/lib/greeter.rb:10:in 'greet': undefined method 'upcase' for nil (NoMethodError)",
  'typescript.pretty': "\x1b[96msrc/a.ts\x1b[0m:\x1b[93m2\x1b[0m:\x1b[93m1\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType 'string' is not assignable to type 'number'.",
  'compiler.msbuild': "src/a.ts(2,1): error TS2322: Type 'string' is not assignable to type 'number'.",
  'typescript.global': "error TS6053: File '/app/tsconfig.base.json' not found.",
  'dotnet.code': "CSC : error CS5001: Program does not contain a static 'Main' method suitable for an entry point",
  'rust.error': '\x1b[1m\x1b[91merror[E0425]\x1b[0m\x1b[1m: cannot find value `x` in this scope\x1b[0m',
  'rust.error-plain': 'error: expected `;`, found `}`',
  'rust.warning': '\x1b[1m\x1b[33mwarning\x1b[0m\x1b[1m: unused variable: `v`\x1b[0m',
  'go.build-error': './main.go:12:5: undefined: handler',
  'go.test-fail': '--- FAIL: TestAdd (0.00s)',
  'go.package-fail': 'FAIL\tgithub.com/acme/calc\t0.004s',
  'compiler.gcc': 'main.c:4:10: fatal error: missing.h: No such file or directory',
  'java.maven-compile': '[ERROR] /app/src/main/java/com/acme/Cart.java:[27,16] cannot find symbol',
  'esbuild.error': '\x1b[31m✘ \x1b[41;31m[\x1b[41;97mERROR\x1b[41;31m]\x1b[0m \x1b[1mCould not resolve "./missing"\x1b[0m',
  'esbuild.located': '/app/src/App.tsx:5:14: ERROR: Expected ";" but found "count"',
  'vite.internal-server-error': '1:02:10 PM [vite] Internal server error: Transform failed with 1 error:',
  'vite.pre-transform-error': '1:06:00 PM [vite] Pre-transform error: Failed to resolve import "./Missing" from "src/main.tsx".',
  'vite.plugin-error': '[plugin:vite:react-babel] /app/src/App.tsx: Unexpected token (5:2)',
  'vite.error': '1:07:00 PM [vite] error while updating dependencies:',
  'vite.warning': '1:08:00 PM [vite] warning: `optimizeDeps.esbuildOptions.jsx` option is deprecated',
  'rollup.warning': '(!) Some chunks are larger than 500 kB after minification.',
  'webpack.error': '\x1b[1m\x1b[31mERROR\x1b[39m\x1b[22m in \x1b[1m./src/index.js\x1b[39m\x1b[22m \x1b[1m\x1b[32m5:2\x1b[39m\x1b[22m',
  'webpack.warning': 'WARNING in ./src/index.js 10:12-19',
  'webpack.failed-to-compile': '\x1b[31mFailed to compile.\x1b[39m',
  'next.build-error': '> Build error occurred',
  'next.warning': ' \x1b[33m⚠\x1b[39m Port 3000 is in use, trying 3001 instead.',
  'go.build-failed': 'failed to build: build failed: exit status 1',
  'java.build-failure': 'BUILD FAILED in 2s',
  'dotnet.build-failed': '\x1b[31mBuild FAILED.\x1b[39m',
  'node.error': 'ReferenceError: fetchUser is not defined',
  'java.caused-by': 'Caused by: java.net.BindException: Address already in use',
  'java.exception': 'java.lang.IllegalStateException: config invalid',
  'python.named-error': "E   ModuleNotFoundError: No module named 'requests'",
  'ruby.error': 'ActionController::RoutingError (No route matches [GET] "/favicon.png"):',
  'ruby.load-error': "NoMethodError - undefined method `name' for nil:NilClass:",
  'node.npm-error': 'npm \x1b[31mERR!\x1b[39m code ELIFECYCLE',
  'node.nodemon-crashed': '\x1b[31m[nodemon] app crashed - waiting for file changes before starting...\x1b[39m',
  'node.cannot-find-module': "[tsx] Cannot find module '/app/src/missing.ts'",
  'node.warning': "(node:4123) Warning: Accessing non-existent property 'x' of module exports inside circular dependency",
  'generic.eaddrinuse': '[api] listen EADDRINUSE :::8080',
  'generic.econnrefused': 'redis: connect ECONNREFUSED 127.0.0.1:6379, retrying in 1s',
  'generic.segfault': 'Segmentation fault (core dumped)',
  'generic.out-of-memory': 'runtime: out of memory: cannot allocate 1073741824-byte block',
  'cargo.running': '     \x1b[1m\x1b[32mRunning\x1b[0m `target/debug/api`',
  'build.running-ok': 'checking migrations: running... ok',
  'prisma.error': '\x1b[31mprisma:error\x1b[39m ',
  'database.auth-failed': 'error: password authentication failed for user "shop"',
  'dotnet.restart-needed': 'dotnet watch ⌚ Restart is needed to apply the changes.',
  'dotnet.failed-to': 'dotnet watch 🔨 Failed to restore /app/Shop/Shop.csproj',
  'dotnet.errors-in': 'Errors in /app/Shop/Shop.csproj',
  'dotnet.netsdk': 'NETSDK1045: The current .NET SDK does not support targeting .NET 9.0. [/app/Shop/Shop.csproj]',
  'dotnet.msbuild': 'MSBuild error MSB3073: The command "npm run build" exited with code 1.',
  'rust.backtrace-hint': 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
  'python.qualified-exception': 'django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty.',
};

function firstMatch(raw: string) {
  const clean = stripAnsi(raw);
  for (const rule of RULES) {
    const m = rule.pattern.exec(clean);
    if (!m) continue;
    if (rule.kind === 'alert' && !rule.head(m)) continue;
    return rule;
  }
  return undefined;
}

describe('the rule table', () => {
  it('has an example line for every rule, and each example is read by its own rule first', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(RULES.map((rule) => rule.id).sort());
    for (const [id, line] of Object.entries(EXAMPLES)) expect(firstMatch(line)?.id, line).toBe(id);
  });

  it('every line a rule matches holds one of the fragments it needs, raw (ANSI included)', () => {
    const lines = [...Object.values(EXAMPLES), ...sampleNames().flatMap((name) => sample(name).split('\n'))];
    let checked = 0;
    for (const raw of lines) {
      const clean = stripAnsi(raw);
      for (const rule of RULES) {
        if (!rule.pattern.test(clean)) continue;
        checked++;
        expect(
          rule.needs.some((fragment) => raw.includes(fragment)),
          `${rule.id} on ${JSON.stringify(raw)}`,
        ).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('searches fragments of at least 4 bytes', () => {
    for (const fragment of FRAGMENTS) expect(Buffer.byteLength(fragment), fragment).toBeGreaterThanOrEqual(4);
  });
});

describe.skipIf(requirePackage('grep', {for: 'the grep pattern checked with GNU grep'}) !== null)('GREP_PATTERN', () => {
  it('makes grep -E match every example line (colour-free) and no ordinary line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workbench-scanner-'));
    try {
      const examples = path.join(dir, 'examples.log');
      const ordinary = path.join(dir, 'ordinary.log');
      fs.writeFileSync(examples, `${Object.values(EXAMPLES).map(stripAnsi).join('\n')}\n`);
      fs.writeFileSync(ordinary, 'GET /api/users/42 200 12.345 ms - 512\n  ➜  Local:   http://localhost:5173/\n[nodemon] restarting due to changes...\n');
      const grep = (file: string) => spawnSync('/usr/bin/grep', ['-E', '-c', GREP_PATTERN, file], {encoding: 'utf8', env: {...process.env, LC_ALL: 'C'}});
      const matched = grep(examples);
      expect(matched.stderr).toBe('');
      expect(Number(matched.stdout.trim())).toBe(Object.keys(EXAMPLES).length);
      expect(grep(ordinary).stdout.trim()).toBe('0');
    } finally {
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe('toGrepPattern', () => {
  it('translates the JS regex subset to POSIX ERE', () => {
    expect(toGrepPattern(String.raw`^(?:\d+):\s(\S+?)\.go$`)).toBe('^([0-9]+):[[:space:]]([^[:space:]]+)\\.go$');
    expect(toGrepPattern(String.raw`[^\]\s]+\[[\w$.]+\]`)).toBe('[^][:space:]]+\\[[[:alnum:]_$.]+\\]');
    expect(toGrepPattern(String.raw`\b(?:hmr update|page reload) \/x`)).toBe('\\b(hmr update|page reload) /x');
  });

  it('refuses what ERE cannot say', () => {
    expect(() => toGrepPattern('(?=x)')).toThrow(/unsupported group/);
    expect(() => toGrepPattern(String.raw`\n`)).toThrow(/unsupported escape/);
    expect(() => toGrepPattern(String.raw`[\S]`)).toThrow(/inside brackets/);
  });
});
