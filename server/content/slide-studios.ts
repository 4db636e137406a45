import { editDistance } from './findings.ts';

/** What the check needs of a studio to tell its id from its names. */
interface NamedStudio {
  id: string;
  name: string;
  city: string;
  displayCity?: string | undefined;
  localized?: Record<
    string,
    { name?: string | undefined; city?: string | undefined; displayCity?: string | undefined }
  >;
}

/** One slide whose studio is not a studio's id, and what to tell the editor. */
export interface SlideStudioProblem {
  index: number;
  message: string;
}

/**
 * Every hero slide whose `studio` is not the id of one of `studios`: a slide written with a
 * studio's name (or city, in any language) is told the id to use, a misspelt id the id it
 * is nearest to, and any other the ids there are.
 */
export function slideStudioProblems(
  slides: readonly { studio: string }[],
  studios: readonly NamedStudio[],
): SlideStudioProblem[] {
  const ids = studios.map((studio) => studio.id);
  const problems: SlideStudioProblem[] = [];
  slides.forEach(({ studio }, index) => {
    if (ids.includes(studio)) return;
    const named = studios.filter((candidate) => namesOf(candidate).has(comparable(studio)));
    if (named.length === 1) {
      problems.push({ index, message: `names a studio, not its id; did you mean \`${named[0]!.id}\`?` });
      return;
    }
    const nearest = ids.find((id) => editDistance(studio, id) <= MISSPELT_EDITS);
    problems.push({
      index,
      message: nearest
        ? `is not the id of a studio; did you mean \`${nearest}\`?`
        : `is not the id of a studio; the ids are ${ids.join(', ')}`,
    });
  });
  return problems;
}

/** Ids are short and alike ("zurich", "munich"): only a slip of one letter is taken for a misspelling. */
const MISSPELT_EDITS = 1;

/** Everything a studio is called by, in every language, for comparing. */
function namesOf(studio: NamedStudio): Set<string> {
  const forms = [studio, ...Object.values(studio.localized ?? {})];
  return new Set(
    forms
      .flatMap(({ name, city, displayCity }) => [name, city, displayCity])
      .flatMap((value) => (value ? [comparable(value)] : [])),
  );
}

const comparable = (value: string) => value.trim().toLocaleLowerCase('und');
