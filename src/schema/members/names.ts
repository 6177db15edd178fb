/** The tools specification's rule: 1 to 128 ASCII letters, digits, `_`, `-` or `.`. */
const VALID_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function isValidName(name: string): boolean {
  return VALID_NAME.test(name);
}

/**
 * The method name in snake_case without a trailing `Async`:
 * `getDocketAsync` → `get_docket`, `HTTPRequest` → `http_request`, `listOpenCases` → `list_open_cases`.
 */
export function toolNameOf(methodName: string): string {
  const base = /.Async$/.test(methodName) ? methodName.slice(0, -'Async'.length) : methodName;
  return base
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
