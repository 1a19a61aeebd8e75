import {describe, expect, it} from 'vitest';
import {createAlertScanner} from '../../../source/processes/scanner/scanner.js';
import type {ScannedAlert} from '../../../source/incidents/types.js';

function scanner() {
  const alerts: Array<[ScannedAlert, number]> = [];
  return {alerts, scan: createAlertScanner({onAlert: (alert, at) => alerts.push([alert, at])})};
}

describe('the scanner stamps an alert with the time its first line was printed', () => {
  it('not when its stack closed: a stack open across chunks keeps its first chunk’s time', () => {
    const {alerts, scan} = scanner();
    scan.write("TypeError: Cannot read properties of undefined (reading 'name')\n    at getUser (/srv/app/server.js:4:31)\n", 1_000);
    scan.write('    at Server.emit (node:events:517:28)\n', 1_200);
    // The next report, 0.3 s later, closes the first.
    scan.write('RangeError: crash requested\n    at Immediate.<anonymous> (/srv/app/server.js:12:9)\n', 1_300);
    scan.end();
    expect(alerts.map(([alert, at]) => [alert.category, at])).toEqual([
      ['TypeError', 1_000],
      ['RangeError', 1_300],
    ]);
  });

  it("a first line split across chunks is the first part's time; a header line above it (Node's caret header) counts", () => {
    const {alerts, scan} = scanner();
    scan.write('Type', 500);
    scan.write('Error: x\n    at f (/srv/a.js:1:1)\n\n', 900);
    scan.write('/srv/app/index.js:3\n  throw new Error("boom");\n  ^\n\n', 2_000);
    scan.write('Error: boom\n    at Object.<anonymous> (/srv/app/index.js:3:9)\n', 2_100);
    scan.end();
    expect(alerts.map(([alert, at]) => [alert.message, at])).toEqual([
      ['x', 500],
      ['boom', 2_000],
    ]);
  });
});
