import {describe, expect, it} from 'vitest';
import {scanText} from '../../../source/processes/scanner/scanner.js';
import {sample} from './sample.js';

/** The alerts of a sample without their raw text, for compact expectations. */
function alertsOf(name: string) {
  return scanText(sample(name)).alerts.map(({raw: _raw, frames: _frames, ...rest}) => rest);
}

describe('node', () => {
  it('reads an uncaught TypeError with its caret header and frames as one alert at the first app frame', () => {
    const {alerts} = scanText(sample('node-typeerror.txt'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      severity: 'error',
      category: 'TypeError',
      message: "Cannot read properties of null (reading 'foo')",
      location: '/home/dev/app/a.js:3:12',
      compile: false,
    });
    expect(alerts[0].raw.split('\n')[0]).toBe('/home/dev/app/a.js:3');
    expect(alerts[0].raw).toContain('at node:internal/main/run_main_module:28:49');
    expect(alerts[0].raw).not.toContain('Node.js v20');
  });

  it('places a SyntaxError whose frames are all node internals at the header file:line', () => {
    expect(alertsOf('node-syntaxerror.txt')).toEqual([
      {severity: 'error', category: 'SyntaxError', message: "Unexpected token ';'", location: '/home/dev/app/b.js:1', compile: false},
    ]);
  });

  it('strips file:// from ESM frames', () => {
    expect(alertsOf('node-esm-error.txt')).toEqual([{severity: 'error', category: 'Error', message: 'boom', location: '/home/dev/app/c.mjs:1:28', compile: false}]);
  });

  it('reads an unhandled rejection including its { code } tail', () => {
    const {alerts} = scanText(sample('node-unhandled-rejection.txt'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0].category).toBe('UnhandledPromiseRejection');
    expect(alerts[0].message).toMatch(/^This error originated .* reason "boom"\.$/);
    expect(alerts[0].raw).toContain("code: 'ERR_UNHANDLED_REJECTION'");
    expect(alerts[0].raw.trimEnd().endsWith('}')).toBe(true);
  });

  it('keeps the Require stack and property tail of Cannot find module in one alert', () => {
    const {alerts} = scanText(sample('node-cannot-find-module.txt'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({category: 'Error', message: "Cannot find module 'expresso'"});
    expect(alerts[0].raw).toContain('Require stack:');
    expect(alerts[0].raw).toContain("requireStack: [ '/home/dev/app/[eval]' ]");
  });

  it('files EADDRINUSE under its code and skips node built-in frames', () => {
    const [alert] = alertsOf('node-eaddrinuse.txt');
    expect(alert.category).toBe('EADDRINUSE');
    expect(alert.severity).toBe('error');
    expect(alert.message).toMatch(/^listen EADDRINUSE: address already in use :::\d+$/);
    expect(alert.location).toBe('[eval]:1:83');
  });

  it('reports ECONNREFUSED as a warning and stops at the next log line', () => {
    const {alerts} = scanText(sample('node-econnrefused.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'warning', category: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432', location: '', compile: false},
    ]);
    expect(alerts[0].raw).not.toContain('GET /health');
  });

  it('keeps an error cause inside the outer error', () => {
    expect(alertsOf('node-error-cause.txt')).toEqual([{severity: 'error', category: 'RangeError', message: 'bad', location: '/home/dev/app/e.js:1:20', compile: false}]);
  });

  it('reads npm error blocks as one alert with the first meaningful message', () => {
    expect(alertsOf('npm-missing-script.txt')).toEqual([{severity: 'error', category: 'npm ERR!', message: 'Missing script: "dev"', location: '', compile: false}]);
    expect(alertsOf('npm-err-legacy.txt')).toEqual([{severity: 'error', category: 'npm ELIFECYCLE', message: 'demo@1.0.0 start: `node server.js`', location: '', compile: false}]);
  });

  it('reports nodemon crashes, segfaults, heap exhaustion and deprecation warnings', () => {
    expect(alertsOf('nodemon-segfault.txt').map((a) => a.category)).toEqual(['Segmentation fault', 'app crashed']);
    expect(alertsOf('node-oom.txt')).toEqual([
      {
        severity: 'error',
        category: 'out of memory',
        message: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
        location: '',
        compile: false,
      },
    ]);
    expect(alertsOf('node-warning.txt')).toEqual([
      {
        severity: 'warning',
        category: 'DeprecationWarning',
        message: 'The `punycode` module is deprecated. Please use a userland alternative instead.',
        location: '',
        compile: false,
      },
    ]);
  });
});

describe('typescript', () => {
  it('reads the classic file(line,col) format as compile errors', () => {
    expect(alertsOf('tsc-classic.txt')).toEqual([
      {severity: 'error', category: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", location: 'src/a.ts:2:1', compile: true},
      {severity: 'error', category: 'TS2307', message: "Cannot find module './nope' or its corresponding type declarations.", location: 'src/a.ts:3:15', compile: true},
      {severity: 'error', category: 'TS2339', message: "Property 'b' does not exist on type '{ a: string; }'.", location: 'src/a.ts:5:12', compile: true},
    ]);
  });

  it('reads the coloured pretty format with its snippet, messages free of ANSI codes', () => {
    const {alerts} = scanText(sample('tsc-pretty-color.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual(alertsOf('tsc-classic.txt'));
    expect(alerts[0].raw).toBe(`src/a.ts:2:1 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n2 n = "a";\n  ~`);
    for (const alert of alerts) expect(alert.raw).not.toMatch(/\x1b/);
  });

  it('counts "Found 0 errors" in watch mode as a build success, not an error', () => {
    const result = scanText(sample('tsc-watch.txt'));
    expect(result.alerts.map((a) => a.category)).toEqual(['TS2322']);
    expect(result.buildSuccesses).toBe(1);
  });
});

describe('vite', () => {
  it('reads internal server errors with esbuild and babel details, pre-transform errors and HMR successes', () => {
    const result = scanText(sample('vite-dev.txt'));
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'Internal server error', message: 'Expected ";" but found "count"', location: '/home/dev/web/src/App.tsx:5:14', compile: true},
      {
        severity: 'error',
        category: 'Internal server error',
        message: '/home/dev/web/src/Cart.tsx: Unexpected token, expected "," (7:11)',
        location: '/home/dev/web/src/Cart.tsx:7:11',
        compile: true,
      },
      {
        severity: 'error',
        category: 'Pre-transform error',
        message: 'Failed to resolve import "./Missing" from "src/main.tsx". Does the file exist?',
        location: '',
        compile: true,
      },
    ]);
    expect(result.alerts[0].raw).toContain('Plugin: vite:esbuild');
    expect(result.alerts[0].raw).toContain('at failureErrorWithLog');
    // `ready in`, two `hmr update`, one `page reload`
    expect(result.buildSuccesses).toBe(4);
  });

  it('reads [plugin:…] errors and rollup warnings', () => {
    const text = [
      '[plugin:vite:css] [postcss] /home/dev/web/src/index.css:4:3: Unknown word',
      '(!) Some chunks are larger than 500 kB after minification.',
      '✓ built in 1.42s',
    ].join('\n');
    const result = scanText(text);
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'plugin:vite:css', message: '[postcss] /home/dev/web/src/index.css:4:3: Unknown word', location: '', compile: true},
      {severity: 'warning', category: 'rollup warning', message: 'Some chunks are larger than 500 kB after minification.', location: '', compile: true},
    ]);
    expect(result.buildSuccesses).toBe(1);
  });
});

describe('webpack', () => {
  it('reads ERROR in / WARNING in blocks with the class from the next line', () => {
    const result = scanText(sample('webpack-dev.txt'));
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'Module parse failed', message: 'Unexpected token (5:2)', location: './src/index.js:5:2', compile: true},
      {severity: 'error', category: 'Module not found', message: "Can't resolve './Header' in '/home/dev/web/src'", location: './src/App.jsx:3:0', compile: true},
      {
        severity: 'warning',
        category: 'webpack warning',
        message: "export 'default' (imported as 'Foo') was not found in './foo' (possible exports: bar)",
        location: './src/index.js:10:12',
        compile: true,
      },
      {severity: 'error', category: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", location: './src/cart.ts:12:7', compile: true},
    ]);
    expect(result.alerts[0].raw).toContain('> const x = ;');
    expect(result.alerts[0].raw).not.toContain('webpack 5.89.0');
    expect(result.buildSuccesses).toBe(1);
  });

  it('reads Create React App\'s "Failed to compile." with the message after the blank line', () => {
    expect(alertsOf('cra-failed.txt')).toEqual([
      {severity: 'error', category: 'Failed to compile', message: "Can't resolve './Header' in '/home/dev/web/src'", location: '', compile: true},
    ]);
  });
});

describe('next.js', () => {
  it('reads ⨯ lines (coloured or not), runtime errors with frames, ⚠ warnings and ✓ successes', () => {
    const result = scanText(sample('next-dev.txt'));
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'Module not found', message: "Can't resolve './Header'", location: './src/app/page.tsx:3:1', compile: true},
      {
        severity: 'error',
        category: 'TypeError',
        message: "Cannot read properties of undefined (reading 'map')",
        location: './src/app/dashboard/page.tsx:14:22',
        compile: false,
      },
      {severity: 'warning', category: 'warning', message: 'Fast Refresh had to perform a full reload due to a runtime error.', location: '', compile: false},
    ]);
    expect(result.buildSuccesses).toBe(3);
    expect(result.alerts[1].raw.split('\n').slice(0, 2)).toEqual([
      ' ⨯ src/app/dashboard/page.tsx (14:22) @ Dashboard',
      " ⨯ TypeError: Cannot read properties of undefined (reading 'map')",
    ]);
  });

  it('reads Next 13 `- error` / `- warn` lines and its compiled event', () => {
    const text = [
      '- event compiled client and server successfully in 412 ms (512 modules)',
      '- error src/app/page.tsx (5:9) @ Page',
      "- error TypeError: Cannot read properties of undefined (reading 'x')",
      '- warn Fast Refresh had to perform a full reload.',
    ].join('\n');
    const result = scanText(text);
    expect(result.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'TypeError', message: "Cannot read properties of undefined (reading 'x')", location: 'src/app/page.tsx:5:9', compile: false},
      {severity: 'warning', category: 'warning', message: 'Fast Refresh had to perform a full reload.', location: '', compile: false},
    ]);
    expect(result.buildSuccesses).toBe(1);
  });

  it('reads "Build error occurred"', () => {
    expect(scanText('> Build error occurred\nError: Export encountered errors on following paths').alerts.map((a) => a.category)).toEqual(['Build error', 'Error']);
  });
});

describe('go', () => {
  it('reads a panic and its goroutine trace as one alert at the first non-runtime, non-stdlib frame', () => {
    const {alerts} = scanText(sample('go-panic.txt'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      category: 'panic',
      message: 'runtime error: invalid memory address or nil pointer dereference',
      location: '/home/dev/svc/handlers.go:57',
      compile: false,
    });
    expect(alerts[0].raw).toContain('created by net/http.(*Server).Serve in goroutine 1');
    expect(alerts[0].raw).not.toContain('exit status 2');
  });

  it('skips module-cache frames', () => {
    expect(alertsOf('go-runtime-panic.txt')).toEqual([
      {severity: 'error', category: 'panic', message: 'assignment to entry in nil map', location: '/home/dev/inventory/cmd/server/main.go:31', compile: false},
    ]);
  });

  it('reads fatal errors, test failures (log lines before --- FAIL) and build errors', () => {
    expect(alertsOf('go-fatal-error.txt')).toEqual([
      {severity: 'error', category: 'fatal error', message: 'all goroutines are asleep - deadlock!', location: '/home/dev/worker/main.go:12', compile: false},
    ]);
    expect(alertsOf('go-test-fail.txt')).toEqual([
      {severity: 'error', category: 'FAIL', message: 'TestAdd: Add(1, 2) = 4; want 3', location: 'calc_test.go:12', compile: false},
      {severity: 'error', category: 'FAIL', message: 'github.com/acme/calc 0.004s', location: '', compile: false},
    ]);
    expect(alertsOf('go-build-error.txt')).toEqual([
      {severity: 'error', category: 'compile error', message: 'undefined: handler', location: './main.go:12:5', compile: true},
      {
        severity: 'error',
        category: 'compile error',
        message: 'cannot use id (variable of type string) as int value in argument to lookup',
        location: './routes.go:33:18',
        compile: true,
      },
    ]);
  });

  it('reads test output without -v, where the log line follows --- FAIL', () => {
    const text = '--- FAIL: TestAdd (0.00s)\n    calc_test.go:12: Add(1, 2) = 4; want 3\nFAIL\nFAIL\tgithub.com/acme/calc [build failed]\n';
    expect(scanText(text).alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'FAIL', message: 'TestAdd: Add(1, 2) = 4; want 3', location: 'calc_test.go:12', compile: false},
      {severity: 'error', category: 'FAIL', message: 'github.com/acme/calc [build failed]', location: '', compile: true},
    ]);
  });
});

describe('python', () => {
  it('reads a traceback through its final exception line', () => {
    const {alerts} = scanText(sample('python-traceback.txt'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({category: 'KeyError', message: "'missing'", location: '/home/dev/app/py/app.py:9'});
    expect(alerts[0].raw.split('\n')).toHaveLength(7);
  });

  it('reads chained tracebacks as two alerts at the innermost app frame, skipping site-packages', () => {
    expect(alertsOf('python-chained.txt')).toEqual([
      {severity: 'error', category: 'KeyError', message: '7', location: '/home/dev/api/app/repo.py:9', compile: false},
      {severity: 'error', category: 'HTTPException', message: '404', location: '/home/dev/api/app/routes.py:23', compile: false},
    ]);
  });

  it('reads ModuleNotFoundError and a SyntaxError with its File header', () => {
    expect(alertsOf('python-module-not-found.txt')).toEqual([
      {severity: 'error', category: 'ModuleNotFoundError', message: "No module named 'flask_sqlalchemy'", location: '/home/dev/api/manage.py:3', compile: false},
    ]);
    expect(alertsOf('python-syntaxerror.txt')).toEqual([
      {severity: 'error', category: 'SyntaxError', message: 'invalid syntax', location: '/home/dev/app/py/syn.py:1', compile: false},
    ]);
    expect(scanText('ImportError: cannot import name "x" from "y"').alerts.map((a) => a.category)).toEqual(['ImportError']);
  });
});

describe('rust', () => {
  it('reads a coloured error[E…] with its --> location', () => {
    const {alerts} = scanText(sample('rust-error-color.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'E0425', message: 'cannot find value `x` in this scope', location: 'src/main.rs:3:20', compile: true},
    ]);
    expect(alerts[0].raw).toContain('help: a local variable with a similar name exists');
  });

  it('reads panics in the current and the older format', () => {
    expect(alertsOf('rust-panic.txt')).toEqual([
      {severity: 'error', category: 'panic', message: 'index out of bounds: the len is 0 but the index is 3', location: 'src/p.rs:4:21', compile: false},
    ]);
    const old = scanText(sample('rust-panic-old.txt'));
    expect(old.alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'panic', message: 'called `Option::unwrap()` on a `None` value', location: 'src/main.rs:7:37', compile: false},
    ]);
    // cargo's `Finished` and `Running` both say the build succeeded.
    expect(old.buildSuccesses).toBe(2);
  });

  it('reads warnings but not cargo summaries', () => {
    const text =
      'warning: unused variable: `v`\n --> src/main.rs:2:9\n  |\n2 |     let v = 1;\n  |         ^ help: prefix it with an underscore: `_v`\n\nwarning: `demo` (bin "demo") generated 1 warning\nerror: could not compile `demo` (bin "demo") due to 1 previous error\n';
    expect(scanText(text).alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'warning', category: 'warning', message: 'unused variable: `v`', location: 'src/main.rs:2:9', compile: true},
    ]);
  });
});

describe('java', () => {
  it('reads an exception with Caused by and elided frames as one alert at the first app frame', () => {
    const {alerts} = scanText(sample('java-exception.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'IllegalStateException', message: 'config invalid', location: 'App.java:6', compile: false},
    ]);
    expect(alerts[0].raw).toContain('Caused by: java.lang.NumberFormatException');
    expect(alerts[0].raw).toContain('... 2 more');
  });

  it('skips framework frames in a Spring Boot failure', () => {
    expect(alertsOf('java-spring.txt')).toEqual([
      {severity: 'error', category: 'ApplicationContextException', message: "Failed to start bean 'webServerStartStop'", location: 'ShopApplication.java:10', compile: false},
    ]);
  });

  it('reads javac and maven compile errors and BUILD FAILURE', () => {
    expect(alertsOf('javac-error.txt')).toEqual([
      {severity: 'error', category: 'compile error', message: 'incompatible types: String cannot be converted to int', location: 'B.java:1', compile: true},
    ]);
    expect(alertsOf('maven-build-failure.txt')).toEqual([
      {severity: 'error', category: 'compile error', message: 'cannot find symbol', location: '/home/dev/shop/src/main/java/com/acme/shop/Cart.java:27:16', compile: true},
      {severity: 'error', category: 'BUILD FAILURE', message: 'BUILD FAILURE', location: '', compile: true},
    ]);
  });
});

describe('ruby', () => {
  it('reads an uncaught exception with its from-lines', () => {
    const {alerts} = scanText(sample('ruby-exception.txt'));
    expect(alerts.map(({raw: _r, frames: _f, ...rest}) => rest)).toEqual([
      {severity: 'error', category: 'NoMethodError', message: "undefined method 'upcase' for nil", location: '/home/dev/app/lib/greeter.rb:10', compile: false},
    ]);
    expect(alerts[0].raw).toContain("from /home/dev/app/bin/run.rb:14:in '<main>'");
  });

  it("reads Rails' NoMethodError (…) log line and LoadError", () => {
    expect(alertsOf('rails-log.txt')).toEqual([{severity: 'error', category: 'NoMethodError', message: "undefined method `title' for nil:NilClass", location: '', compile: false}]);
    expect(scanText('LoadError: cannot load such file -- nokogiri').alerts.map((a) => [a.category, a.message])).toEqual([['LoadError', 'cannot load such file -- nokogiri']]);
  });
});

describe('.NET', () => {
  it('reads MSBuild errors and warnings and Build FAILED', () => {
    expect(alertsOf('dotnet-build.txt')).toEqual([
      {severity: 'error', category: 'CS1002', message: '; expected', location: '/home/dev/Shop/Program.cs:12:34', compile: true},
      {
        severity: 'warning',
        category: 'CS8618',
        message: "Non-nullable property 'Name' must contain a non-null value when exiting constructor.",
        location: '/home/dev/Shop/Models/Order.cs:8:10',
        compile: true,
      },
      {severity: 'error', category: 'Build FAILED', message: 'Build FAILED.', location: '', compile: true},
    ]);
  });

  it('reads an unhandled exception at its first frame with a source file', () => {
    expect(alertsOf('dotnet-unhandled.txt')).toEqual([
      {
        severity: 'error',
        category: 'InvalidOperationException',
        message: 'Sequence contains no elements',
        location: '/home/dev/Shop/Services/OrderService.cs:27',
        compile: false,
      },
    ]);
    expect(scanText('Build succeeded.\n    0 Warning(s)\n').buildSuccesses).toBe(1);
  });
});

describe('ordinary output', () => {
  it('raises nothing for request logs, JSON logs and startup lines', () => {
    const text = [
      'GET /api/users/42 200 12.345 ms - 512',
      '{"level":30,"time":1732280400123,"msg":"request completed","res":{"statusCode":200}}',
      '  ➜  Local:   http://localhost:5173/',
      '2024/11/22 13:00:00 server.go:88: GET /healthz 200 312µs',
      '[nodemon] restarting due to changes...',
      'prisma:query SELECT "public"."User"."id" FROM "public"."User" WHERE "public"."User"."email" = $1',
      'GET /api/errors?page=2 200 3.1 ms - 90',
      'Already up to date; 3 warnings were suppressed by config',
    ];
    const result = scanText(text.join('\n'));
    expect(result.alerts).toEqual([]);
    expect(result.buildSuccesses).toBe(0);
  });
});
