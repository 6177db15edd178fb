import { Param, Tool } from '../../src';
import { Priority } from '../support/enums';
import { inputOf } from '../support/listing';

describe('a default that names a member of an imported enum', () => {
  it('is written in its listed form (CommonJS output reads module_1.Enum.Member)', () => {
    class T {
      @Tool() a(@Param({ type: Priority }) p: Priority = Priority.Urgent): void {}
    }
    expect(String(Object.getOwnPropertyDescriptor(T.prototype, 'a')!.value)).toContain('enums_1.Priority.Urgent');
    expect(inputOf(new T())).toBe(
      '{"type":"object","properties":{"p":{"type":"string","enum":["low","normal","urgent"],"default":"urgent"}},"additionalProperties":false}',
    );
  });
});
