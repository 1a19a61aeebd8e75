import React from 'react';
import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {queryIncidents} from '../../../source/incidents/incidents.js';
import {PortsContext} from '../../../source/tui/contexts/PortsContext.js';
import {IncidentDetail} from '../../../source/tui/panes/incidents/IncidentDetail.js';
import type {TuiPorts} from '../../../source/tui/ports/index.js';
import {NOW} from '../incidents/records.js';
import {store, TRACE} from '../incidents/story-records.js';

// Enter on an incident that tells a story (issue 8 item 9) shows its three parts, as get_incidents
// does: the incident comes from the inbox's own query over records as the proxy and the scanner
// store them (the inbox's own story fixture). No process output is read for a browser incident, so the ports are never asked.

describe('the incident detail tells the story', () => {
  it('shows the page error, the failing request and the server exception of one incident', () => {
    const incidents = queryIncidents(store(), NOW);
    const lead = incidents.find((incident) => incident.story)!;
    expect(lead.source).toBe('browser:js');
    const {lastFrame, unmount} = render(
      <PortsContext.Provider value={{} as TuiPorts}>
        <IncidentDetail incident={lead} now={NOW} width={120} height={30} scroll={0} />
      </PortsContext.Provider>,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain(`Story (trace ${TRACE})`);
    expect(frame).toMatch(/browser\s+TypeError: Cannot read properties of undefined \(reading 'items'\) → src\/Cart\.tsx:42:7/);
    expect(frame).toMatch(/request\s+POST \/api\/cart → 500 database is locked/);
    expect(frame).toMatch(/server\s+process:api Error: database is locked → \/srv\/api\/src\/routes\/cart\.js:41:18/);
    expect(frame).toContain('at saveCart (/srv/api/src/routes/cart.js:41:18)');
    unmount();

    const part = incidents.find((incident) => incident.part_of === lead.id)!;
    const shown = render(
      <PortsContext.Provider value={{processes: {output: () => Promise.resolve('')}} as unknown as TuiPorts}>
        <IncidentDetail incident={part} now={NOW} width={120} height={30} scroll={0} />
      </PortsContext.Provider>,
    );
    expect(shown.lastFrame()).toMatch(new RegExp(`part of\\s+incident ${lead.id}`));
    shown.unmount();
  });
});
