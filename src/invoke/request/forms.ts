import { AnswerMismatchError } from '../../errors';
import { Problems } from '../../schema/diagnostics';
import { recordOf } from '../../schema/records/records';
import { siteOf } from '../../schema/members/tools';
import { fragmentOf } from '../../schema/write';
import { INVALID, newFailure, formatPath } from '../reading/failure';
import { readerOf } from '../reading/reader';

/** The `requestedSchema` of an elicitation form: a flat JSON Schema object of primitive properties. */
export interface FormSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[];
}

/** An elicitation form built from a record class: the schema sent, and the reader of the user's answer. */
export interface Form {
  readonly requestedSchema: FormSchema;
  readonly read: (content: unknown) => unknown;
}

const forms = new WeakMap<Function, Form>();

/**
 * The form of a record class, built once: its input schema (as a tool parameter of that class would list
 * it) and a strict reader that gives back an instance. A class that is not a record throws its
 * `DefinitionError`, as `server.add` would.
 */
export function formOf(ctor: new () => object): Form {
  let form = forms.get(ctor);
  if (!form) {
    const problems = new Problems();
    const node = recordOf(ctor, siteOf(`the elicitation form ${ctor.name}`, problems, 'input'), 'input');
    problems.throwIfAny(ctor.name);
    const read = readerOf(node!);
    form = {
      // A record's fragment is always an object schema of its properties.
      requestedSchema: fragmentOf(node!) as unknown as FormSchema,
      read: (content) => {
        const f = newFailure();
        const value = read(content, f);
        if (value === INVALID) {
          const where = formatPath(f.path);
          throw new AnswerMismatchError(
            `The elicitation answer does not fit ${ctor.name}${where ? `: '${where}' is not valid.` : '.'}${f.expected ? ` ${f.expected}` : ''}`,
          );
        }
        return value;
      },
    };
    forms.set(ctor, form);
  }
  return form;
}
