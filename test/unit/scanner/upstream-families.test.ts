/**
 * The upstream's rule families the scanner once missed (issue 7 item 16), each against a sample
 * modelled on the tool's real output, plus the repeated-panic count and the never-empty message.
 */
import {describe, expect, it} from 'vitest';
import {AlertStore} from '../../../source/processes/alert-store.js';
import {createAlertScanner, scanText} from '../../../source/processes/scanner/scanner.js';
import {sample, sampleNames} from './sample.js';

/** The alerts of a text without their raw text, for compact expectations. */
function alertsIn(text: string) {
  return scanText(text).alerts.map(({raw: _raw, frames: _frames, ...rest}) => rest);
}

const alertsOf = (name: string) => alertsIn(sample(name));

describe('.NET restore and SDK errors', () => {
  it('places NU and NETSDK errors at the project, and reads a failure summary only when no error was read', () => {
    expect(alertsOf('dotnet-restore.txt')).toEqual([
      {
        severity: 'error',
        category: 'NU1101',
        message: 'Unable to find package Acme.Payments. No packages exist with this id in source(s): nuget.org',
        location: '/home/dev/Shop/Shop.csproj',
        compile: true,
      },
      {
        severity: 'error',
        category: 'NETSDK1045',
        message: 'The current .NET SDK does not support targeting .NET 9.0.  Either target .NET 8.0 or lower, or use a version of the .NET SDK that supports .NET 9.0.',
        location: '/home/dev/Shop/Shop.csproj',
        compile: true,
      },
    ]);
    expect(alertsIn('Build started...\nBuild failed with 2 error(s) in 4.7s\n')).toEqual([
      {severity: 'error', category: 'Build failed', message: 'Build failed with 2 error(s) in 4.7s', location: '', compile: true},
    ]);
    expect(alertsIn('Restore failed with 1 error(s) in 1.2s\n').map((a) => a.category)).toEqual(['Restore failed']);
  });
});

describe('yarn', () => {
  it('reads `error …` lines of Yarn 1', () => {
    expect(alertsOf('yarn-error.txt')).toEqual([
      {severity: 'error', category: 'yarn error', message: 'Command failed with exit code 1.', location: '', compile: false},
      {severity: 'error', category: 'yarn error', message: 'An unexpected error occurred: "https://registry.yarnpkg.com/@acme%2fui: Not found".', location: '', compile: false},
    ]);
  });
});

describe('Django, Flask and Werkzeug', () => {
  it("reads Django's Internal Server Error with its traceback as one alert naming the request", () => {
    const {alerts} = scanText(sample('django-dev.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'KeyError', message: "'totl' (/api/orders/42/)", location: '/home/dev/shop/orders/views.py:18', compile: false},
      {
        severity: 'error',
        category: 'ImproperlyConfigured',
        message: "The included URLconf 'orders.urls' does not appear to have any patterns in it. (thread django-main-thread)",
        location: '/home/dev/shop/shop/urls.py:7',
        compile: false,
      },
    ]);
    expect(alerts[0].raw.split('\n')[0]).toBe('Internal Server Error: /api/orders/42/');
    expect(alerts[0].raw).not.toContain('HTTP/1.1" 500');
  });

  it("reads Flask's `ERROR in app: Exception on` and Werkzeug's `Error on request:`", () => {
    expect(alertsOf('flask-werkzeug.txt')).toEqual([
      {severity: 'error', category: 'TypeError', message: "unsupported operand type(s) for +: 'int' and 'str' (POST /cart)", location: '/home/dev/cart/app.py:21', compile: false},
      {
        severity: 'error',
        category: 'BuildError',
        message: "Could not build url for endpoint 'cartt'. Did you mean 'cart' instead?",
        location: '/home/dev/cart/app.py:30',
        compile: false,
      },
    ]);
  });
});

describe('go toolchain', () => {
  it('reads `go: ` errors with their hints and go.mod location, and skips download progress', () => {
    expect(alertsOf('go-toolchain.txt')).toEqual([
      {severity: 'error', category: 'go', message: 'cannot find main module, but found .git/config in /home/dev/svc', location: '', compile: true},
      {severity: 'error', category: 'go', message: 'errors parsing go.mod: unknown directive: requir', location: '/home/dev/svc/go.mod:5', compile: true},
      {severity: 'error', category: 'go', message: 'updates to go.mod needed; to update it: go mod tidy', location: '', compile: true},
      {severity: 'warning', category: 'go', message: '"./..." matched no packages', location: '', compile: true},
    ]);
  });
});

describe('rustc', () => {
  it("reads the short format's error[E…] lines; `error: aborting` is read only when no error before it was", () => {
    expect(alertsOf('rustc-short.txt')).toEqual([
      {severity: 'error', category: 'E0425', message: 'cannot find value `x` in this scope', location: 'src/main.rs:3:20', compile: true},
      {severity: 'error', category: 'E0308', message: 'mismatched types', location: 'src/main.rs:7:18', compile: true},
    ]);
    expect(alertsIn('   Compiling demo v0.1.0\nerror: aborting due to 2 previous errors\n')).toEqual([
      {severity: 'error', category: 'aborting', message: 'aborting due to 2 previous errors', location: '', compile: true},
    ]);
  });
});

describe('Java SEVERE', () => {
  it('reads java.util.logging SEVERE records, with the root cause and its first app frame', () => {
    expect(alertsOf('java-severe.txt')).toEqual([
      {
        severity: 'error',
        category: 'SEVERE',
        message: 'One or more listeners failed to start. Full details will be found in the appropriate container log file',
        location: '',
        compile: false,
      },
      {
        severity: 'error',
        category: 'NullPointerException',
        message:
          'Servlet.service() for servlet [dispatcher] in context with path [/shop] threw exception [Request processing failed: java.lang.NullPointerException] with root cause: Cannot invoke "com.acme.shop.Cart.total()" because "cart" is null',
        location: 'CartController.java:42',
        compile: false,
      },
    ]);
  });
});

describe('Ruby Errno', () => {
  it('reads Errno::… in the Rails, irb and uncaught forms; ECONNREFUSED is a warning', () => {
    expect(alertsOf('ruby-errno.txt')).toEqual([
      {severity: 'error', category: 'Errno::ENOENT', message: 'No such file or directory @ rb_sysopen - /home/dev/shop/config/reports.yml', location: '', compile: false},
      {
        severity: 'warning',
        category: 'Errno::ECONNREFUSED',
        message: 'Connection refused - connect(2) for 127.0.0.1:6379',
        location: '/home/dev/worker/lib/queue.rb:14',
        compile: false,
      },
      {
        severity: 'error',
        category: 'Errno::ENOENT',
        message: 'No such file or directory @ rb_sysopen - config/settings.yml',
        location: '/home/dev/shop/lib/loader.rb:8',
        compile: false,
      },
    ]);
  });
});

describe('Vite HMR failures', () => {
  it('reads "hmr update failed" as an error, not as the hmr update success it starts like', () => {
    const result = scanText(sample('vite-hmr-failed.txt'));
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {
        severity: 'error',
        category: 'HMR update failed',
        message: '/home/dev/web/src/Cart.tsx: Unexpected token (12:4)',
        location: '/home/dev/web/src/Cart.tsx:12:4',
        compile: true,
      },
      {
        severity: 'error',
        category: 'HMR update failed',
        message: 'Failed to reload /src/Cart.tsx: This could be due to syntax errors or importing non-existent modules. (see errors above)',
        location: '/src/Cart.tsx',
        compile: true,
      },
    ]);
    // `ready in` and the one good `hmr update`
    expect(result.buildSuccesses).toBe(2);
    expect(alertsIn('[HMR] Update failed: ChunkLoadError: Loading hot update chunk main failed.').map((a) => a.category)).toEqual(['HMR update failed']);
  });
});

describe('pytest', () => {
  it('reads the short test summary: FAILED and ERROR lines with the exception class and the test file', () => {
    expect(alertsOf('pytest-summary.txt')).toEqual([
      {severity: 'error', category: 'AssertionError', message: 'test_total: assert 12.5 == 13.0', location: 'tests/test_cart.py', compile: false},
      {
        severity: 'error',
        category: 'OperationalError',
        message: 'test_refund: (sqlite3.OperationalError) no such table: refunds',
        location: 'tests/test_orders.py',
        compile: false,
      },
    ]);
    expect(alertsIn('FAILED tests/test_api.py::test_health')).toEqual([
      {severity: 'error', category: 'FAILED', message: 'test_health failed', location: 'tests/test_api.py', compile: false},
    ]);
  });
});

describe('ESLint', () => {
  it('reads stylish output as one alert per problem, at file:line:col, warnings as warnings', () => {
    const {alerts} = scanText(sample('eslint-stylish.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {
        severity: 'error',
        category: '@typescript-eslint/no-unused-vars',
        message: "'useState' is defined but never used",
        location: '/home/dev/web/src/App.tsx:3:10',
        compile: true,
      },
      {severity: 'warning', category: 'no-console', message: 'Unexpected console statement', location: '/home/dev/web/src/App.tsx:12:5', compile: true},
      {severity: 'error', category: 'eslint', message: 'Parsing error: Declaration or statement expected', location: '/home/dev/web/src/cart/total.ts:7:1', compile: true},
    ]);
    expect(alerts[1].raw).toBe('/home/dev/web/src/App.tsx\n  12:5   warning  Unexpected console statement          no-console');
  });
});

describe('build-success lines', () => {
  it('counts "build completed in", "Rebuild finished" and "Build OK", but not when they report failures', () => {
    const lines = [
      'Build completed in 412ms',
      '[esbuild] Rebuild finished, watching for changes',
      '==> Build OK',
      'Rebuild finished with 2 errors',
      'Build completed in 3s, 1 failed',
    ];
    expect(scanText(lines.join('\n')).buildSuccesses).toBe(3);
  });
});

describe('repeated reports', () => {
  it('reads two identical panics printed back to back as two alerts', () => {
    const {alerts} = scanText(sample('go-panic-twice.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'panic', message: 'order 42 has no lines', location: '/home/dev/shop/main.go:14', compile: false},
      {severity: 'error', category: 'panic', message: 'order 42 has no lines', location: '/home/dev/shop/main.go:14', compile: false},
    ]);
    expect(alerts[1].raw).not.toContain('exit status 2');
  });

  it('stores them as one entry with count 2', () => {
    const store = new AlertStore();
    for (const alert of scanText(sample('go-panic-twice.txt')).alerts) store.add('api', alert);
    expect(store.list('api').map((entry) => [entry.category, entry.count])).toEqual([['panic', 2]]);
  });

  it('keeps a panic chain (a panic while panicking) in one alert', () => {
    const text = 'panic: first [recovered]\n\tpanic: second\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/dev/x/main.go:5 +0x25\n';
    expect(alertsIn(text).map((a) => a.message)).toEqual(['first']);
  });
});

describe('messages a person can act on', () => {
  it('skips progress noise between a webpack header and its message', () => {
    expect(alertsOf('webpack-noise.txt')).toEqual([
      {severity: 'error', category: 'Module not found', message: "Can't resolve './Header' in '/home/dev/web/src'", location: './src/App.jsx', compile: true},
      {severity: 'error', category: 'Failed to compile', message: 'Unexpected token (5:2)', location: '', compile: true},
    ]);
  });

  it('gives a bare Traceback header, a bare exception class and a header with nothing after it a message', () => {
    expect(alertsIn('Traceback (most recent call last):\n  File "/home/dev/app/jobs.py", line 12, in run_job\n    process(batch)\n')).toEqual([
      {
        severity: 'error',
        category: 'Traceback',
        message: 'traceback ended without its exception line (last call in run_job)',
        location: '/home/dev/app/jobs.py:12',
        compile: false,
      },
    ]);
    expect(alertsIn('Traceback (most recent call last):\n\nready\n').map((a) => a.message)).toEqual(['traceback ended without its exception line']);
    expect(alertsIn('Traceback (most recent call last):\n  File "/home/dev/app/cfg.py", line 4, in <module>\n    raise KeyError\nKeyError\n')).toEqual([
      {severity: 'error', category: 'KeyError', message: 'KeyError at /home/dev/app/cfg.py:4', location: '/home/dev/app/cfg.py:4', compile: false},
    ]);
    expect(alertsIn('java.lang.NullPointerException\n\tat com.acme.App.main(App.java:8)\n').map((a) => a.message)).toEqual(['NullPointerException at App.java:8']);
    expect(alertsIn('Failed to compile.\n\ncompiling...\n').map((a) => a.message)).toEqual(['Failed to compile (no message printed)']);
  });

  it('never reports an empty message for any sample', () => {
    for (const name of sampleNames()) {
      for (const alert of scanText(sample(name)).alerts) expect(alert.message.trim(), `${name}: ${alert.category}`).not.toBe('');
    }
  });
});

describe('issue 26: the families the upstream reads and the scanner missed', () => {
  it('reads dotnet watch: a restore failure, ENC errors, the restart it needs, MSBuild and bare NETSDK errors', () => {
    expect(alertsOf('dotnet-watch.txt')).toEqual([
      {severity: 'error', category: 'Restore failed', message: 'Failed to restore /home/dev/Shop/Shop.csproj', location: '/home/dev/Shop/Shop.csproj', compile: true},
      {severity: 'error', category: 'ENC0020', message: "Renaming method 'Total' requires restarting the application.", location: '', compile: true},
      {severity: 'error', category: 'dotnet watch', message: 'Restart is needed to apply the changes.', location: '', compile: false},
      {severity: 'error', category: 'MSB3073', message: 'The command "npm run build:css" exited with code 1.', location: '', compile: true},
      {
        severity: 'error',
        category: 'NETSDK1004',
        message: "Assets file '/home/dev/Shop/obj/project.assets.json' not found. Run a NuGet package restore to generate this file.",
        location: '/home/dev/Shop/Shop.csproj',
        compile: true,
      },
    ]);
  });

  it("reads NuGet's `Errors in <project>` summary only when its errors were not read already", () => {
    const nu1101 = 'Unable to find package Acme.Payments. No packages exist with this id in source(s): nuget.org';
    expect(alertsOf('nuget-errors-in.txt')).toEqual([{severity: 'error', category: 'NU1101', message: nu1101, location: '/home/dev/Shop/Shop.csproj', compile: true}]);
    expect(alertsIn('Errors in /home/dev/Shop/Shop.csproj\n    NU1101: Unable to find package Acme.Payments.\n')).toEqual([
      {severity: 'error', category: 'NU1101', message: 'Unable to find package Acme.Payments.', location: '/home/dev/Shop/Shop.csproj', compile: true},
    ]);
  });

  it('reads a Prisma error block as one alert at its call site, and driver authentication failures with no prefix', () => {
    const {alerts} = scanText(sample('database-auth.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {
        severity: 'error',
        category: 'prisma',
        message: 'Authentication failed against database server at `127.0.0.1`, the provided database credentials for `shop` are not valid. (prisma.order.findMany())',
        location: '/home/dev/shop/src/orders/list.ts:22:36',
        compile: false,
      },
      {severity: 'error', category: 'database', message: 'password authentication failed for user "reports"', location: '/home/dev/shop/src/reports/daily.ts:14:3', compile: false},
      {severity: 'error', category: 'database', message: "ERROR 1045 (28000): Access denied for user 'shop'@'localhost' (using password: YES)", location: '', compile: false},
    ]);
    // The block is one alert from its banner to its cause; the request log after it is not part of it.
    expect(alerts[0].raw.split('\n')[0]).toBe('prisma:error ');
    expect(alerts[0].raw).not.toContain('GET /orders');
  });

  it("reads esbuild's ✘ [ERROR] block as one alert at its file:line:col, and Vite's dependency scan as the esbuild error it reports", () => {
    const esbuild = scanText(sample('esbuild-could-not-resolve.txt'));
    expect(esbuild.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'esbuild', message: 'Could not resolve "./Header"', location: 'src/App.tsx:3:19', compile: true},
    ]);
    expect(esbuild.buildSuccesses).toBe(2);
    expect(alertsOf('vite-dep-scan.txt')).toEqual([
      {severity: 'error', category: 'esbuild', message: 'Could not resolve "vue-routr"', location: 'src/router.ts:1:29', compile: true},
    ]);
  });

  it('places a Python traceback at its innermost application frame, past site-packages and the standard library', () => {
    expect(alertsOf('python-app-frame.txt')).toEqual([
      {severity: 'error', category: 'JSONDecodeError', message: 'Expecting value: line 1 column 1 (char 0)', location: '/home/dev/shop/orders/views.py:31', compile: false},
    ]);
  });

  it('reads the RUST_BACKTRACE hint as a warning on its own, and as part of the panic it follows', () => {
    expect(alertsIn('note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n')).toEqual([
      {severity: 'warning', category: 'RUST_BACKTRACE', message: 'run with `RUST_BACKTRACE=1` environment variable to display a backtrace', location: '', compile: false},
    ]);
    expect(alertsOf('rust-panic-old.txt').map((a) => a.category)).toEqual(['panic']);
  });

  it('stores a line printed twice as one entry with count 2 (spec rule 1)', () => {
    for (const text of [
      'Build FAILED.\nBuild FAILED.\n',
      'panic: runtime error\npanic: runtime error\n',
      'Error: connect ECONNREFUSED 127.0.0.1:5432\nError: connect ECONNREFUSED 127.0.0.1:5432\n',
    ]) {
      const store = new AlertStore();
      for (const alert of scanText(text).alerts) store.add('api', alert);
      expect(
        store.list('api').map((entry) => entry.count),
        text,
      ).toEqual([2]);
    }
  });

  it("retires the process's earlier build errors on a success line (Rebuild finished, webpack compiled successfully, cargo Running), not its runtime errors", () => {
    const cases = [
      ['✘ [ERROR] Could not resolve "./Header"\n\n    src/App.tsx:3:19:\n\n', 'Rebuild finished\n'],
      ["ERROR in ./src/App.js\nModule not found: Error: Can't resolve './Header' in '/home/dev/web/src'\n\n", 'webpack 5.91.0 compiled successfully in 412 ms\n'],
      ['error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:3:20\n\n', '     Running `target/debug/api`\n'],
    ];
    for (const [failure, success] of cases) {
      const store = new AlertStore();
      const scanner = createAlertScanner({onAlert: (alert) => store.add('web', alert), onBuildSuccess: () => store.clearCompileErrors('web')});
      scanner.write('TypeError: boom\n    at main (/home/dev/web/server.js:3:9)\n\n');
      scanner.write(failure);
      scanner.flush();
      expect(
        store.list('web').map((entry) => entry.compile),
        failure,
      ).toEqual([false, true]);
      scanner.write(success);
      expect(
        store.list('web').map((entry) => entry.category),
        success,
      ).toEqual(['TypeError']);
    }
  });
});
