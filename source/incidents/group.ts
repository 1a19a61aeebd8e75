import type {ErrorGroup} from './dedupe.js';
import {shapeGroupKey} from './fingerprint.js';
import {compareGroups} from './order.js';

/**
 * Near-duplicates (issue 7 item 4): exact groups (get_errors' dedupe) whose source, category and
 * location are equal and whose messages share a fingerprint become one incident. get_errors
 * stays exact; get_incidents, `workbench get-incidents` and the Incidents pane show these.
 */
export interface NearGroup {
  /** The merged entry: the newest variant's message and page, summed count, widest time span. */
  group: ErrorGroup;
  /** Distinct messages, newest first (one when nothing varied). */
  variants: string[];
}

export function groupNearDuplicates(groups: ErrorGroup[]): NearGroup[] {
  const byKey = new Map<string, ErrorGroup[]>();
  for (const group of groups) {
    const key = shapeGroupKey(group.shape);
    const members = byKey.get(key);
    if (members) members.push(group);
    else byKey.set(key, [group]);
  }
  const merged: NearGroup[] = [];
  for (const members of byKey.values()) merged.push(members.length === 1 ? {group: members[0], variants: [members[0].shape.message]} : mergeMembers(members));
  return merged.sort((a, b) => compareGroups(a.group, b.group));
}

function mergeMembers(members: ErrorGroup[]): NearGroup {
  // Newest first; of equal times (lines read in one chunk), the one that came later.
  const newestFirst = [...members].sort((a, b) => b.lastSeen - a.lastSeen || b.lastOrder - a.lastOrder);
  const newest = newestFirst[0];
  const group: ErrorGroup = {...newest, count: 0, firstSeen: newest.firstSeen};
  const current = members.some((member) => member.olderRun === undefined);
  group.olderRun = current ? undefined : Math.max(...members.map((member) => member.olderRun ?? 0));
  for (const member of members) {
    group.count += member.count;
    if (member.firstSeen < group.firstSeen) group.firstSeen = member.firstSeen;
    if (member.severity === 'error' && group.severity !== 'error') {
      group.severity = 'error';
      group.kind = member.kind;
    }
  }
  const variants = [...new Set(newestFirst.map((member) => member.shape.message))];
  return {group, variants};
}
