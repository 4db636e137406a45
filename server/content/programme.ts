/** What the programme's check reads of the content file: the event's times and each segment's. */
interface ProgrammeParts {
  event: { startTime: string; endTime: string };
  programme: readonly { id: string; start: string }[];
  /** Whether a value is a time of day: one that is not is told by its own rule and compared with nothing. */
  isTime: (value: string) => boolean;
}

/** One segment's field that would mislead, and what to tell the editor. */
export interface SegmentProblem {
  index: number;
  field: 'id' | 'start';
  message: string;
}

/**
 * Every segment that would mislead a visitor: a doubled id, a start outside the broadcast, or one
 * that is not after the segment before it (a segment ends where the next begins). Times are the
 * event's wall clock on its date, "18:20", compared as written.
 */
export function programmeProblems({ event, programme, isTime }: ProgrammeParts): SegmentProblem[] {
  const problems: SegmentProblem[] = [];
  const within = isTime(event.startTime) && isTime(event.endTime) && event.startTime < event.endTime;
  programme.forEach(({ id, start }, index) => {
    const tell = (field: SegmentProblem['field'], message: string) => problems.push({ index, field, message });
    const first = programme.findIndex((other) => other.id === id);
    if (first < index) tell('id', `is already the id of programme.${first}`);
    if (!isTime(start)) return;
    if (within && start < event.startTime) tell('start', `is before event.startTime "${event.startTime}"`);
    if (within && start >= event.endTime)
      tell('start', `is not before event.endTime "${event.endTime}": the segment would never be on air`);
    const before = programme[index - 1];
    if (!before || !isTime(before.start)) return;
    if (start === before.start)
      tell('start', `is programme.${index - 1}'s start too: each segment needs its own minute`);
    if (start < before.start)
      tell('start', `is before programme.${index - 1}.start "${before.start}": list the segments in their order`);
  });
  return problems;
}
