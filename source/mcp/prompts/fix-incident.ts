import type {Incident} from '../../incidents/index.js';
import {getIncidents} from '../../tools/get-incidents.js';
import type {ToolContext} from '../../tools/registry-types.js';
import {asProtocolError} from '../protocol-error.js';
import {readResource} from '../resources/read.js';
import {resourceUri} from '../resources/uris.js';
import type {PromptAnswer, PromptDefinition} from './types.js';

/** The newest incident; one that is part of a story stands for the incident that tells it. */
function latest(incidents: Incident[]): Incident | undefined {
  const newest = [...incidents].sort((a, b) => Date.parse(b.last_seen) - Date.parse(a.last_seen))[0];
  if (!newest?.part_of) return newest;
  return incidents.find((incident) => incident.id === newest.part_of) ?? newest;
}

async function fixIncident(args: Record<string, string>, context: ToolContext): Promise<PromptAnswer> {
  let chosen: Incident | undefined;
  try {
    chosen = args.id ? (await getIncidents({id: args.id}, context)).incidents[0] : latest((await getIncidents({limit: 10_000}, context)).incidents);
  } catch (error) {
    throw asProtocolError(error);
  }
  if (!chosen)
    return {
      description: 'The inbox is empty',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'The workbench inbox has no incidents: tell me nothing is failing right now, and how to watch for new errors (the get_incidents tool with {"unread": true}).',
          },
        },
      ],
    };
  const incident = await readResource(resourceUri({kind: 'incident', id: chosen.id}), context);
  const messages: PromptAnswer['messages'] = [
    {
      role: 'user',
      content: {
        type: 'text',
        text: [
          `Explain the incident below (${chosen.label} from ${chosen.source}, seen ${chosen.count} time(s)) and fix it.`,
          'Its story joins the page error, the request and the server error around it: find the cause in the code, change it, then check the fix (restart the process with the proc tool, reproduce, and read get_incidents {"unread": true}).',
        ].join('\n'),
      },
    },
    {role: 'user', content: {type: 'resource', resource: incident}},
  ];
  const process = /^process:(.+)$/.exec(chosen.source)?.[1];
  if (process) {
    const output = await readResource(resourceUri({kind: 'output', id: process}), context).catch(() => undefined);
    if (output) messages.push({role: 'user', content: {type: 'resource', resource: output}});
  }
  return {description: `Explain and fix ${chosen.label}: ${chosen.message.split('\n')[0]!.slice(0, 120)}`, messages};
}

export const fixIncidentPrompt: PromptDefinition = {
  name: 'fix-latest-incident',
  title: 'Explain and fix the latest incident',
  description: 'The newest incident of the inbox (or the one named) with its story, and the output of the process it came from, as context to explain and fix it.',
  arguments: [{name: 'id', description: 'An incident id (from workbench://incidents); the newest when absent', required: false, completes: 'incident'}],
  get: fixIncident,
};
