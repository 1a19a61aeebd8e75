/**
 * Read marks of the inbox, kept in the daemon so every client (an agent's MCP session, the CLI)
 * shares them: an incident is unread until marked, and again when it recurs after the mark (its
 * `last_seen` moves past the one marked). Bounded: the oldest marks go first.
 */
export interface Seen {
  id: string;
  last_seen: string;
}

export const MAX_READ_MARKS = 5000;

export class ReadMarks {
  private readonly marks = new Map<string, string>();

  isUnread(incident: Seen): boolean {
    const marked = this.marks.get(incident.id);
    return marked === undefined || incident.last_seen > marked;
  }

  /** Marks each incident read as of its `last_seen`; returns how many marks changed. */
  mark(incidents: Seen[]): number {
    let changed = 0;
    for (const {id, last_seen} of incidents) {
      const marked = this.marks.get(id);
      if (marked !== undefined && marked >= last_seen) continue;
      this.marks.delete(id);
      this.marks.set(id, last_seen);
      changed += 1;
    }
    while (this.marks.size > MAX_READ_MARKS) this.marks.delete(this.marks.keys().next().value as string);
    return changed;
  }

  list(): Seen[] {
    return [...this.marks].map(([id, last_seen]) => ({id, last_seen}));
  }
}
