// Type tests for decorator signatures (issue 11): checked by tsc in test/types/types.test.ts, never run.
import { ArrayOf, Description, Field, Int32, Length, Nullable, Param, Range, StringLength, Tool } from 'onemodelcontext';

export class Orders {
  @Tool({ returns: ArrayOf(Int32) })
  @Description('Lists order ids')
  async ids(
    @StringLength(200, { min: 1 }) customer: string,
    @Length(1, 200) note: string,
    @Range(1, 10) @Param({ type: Int32 }) limit: number,
    @Param('since', { type: Nullable(Date) }) since: Date | null,
  ): Promise<number[]> {
    return [customer.length, note.length, limit, since ? 1 : 0];
  }

  // @ts-expect-error StringLength takes (max, { min }); the overload's message says so
  @Tool() rename(@StringLength(1, 200) title: string): string {
    return title;
  }

  // @ts-expect-error Range takes numbers
  @Tool() page(@Range('1', 10) n: number): number {
    return n;
  }
}

export class Line {
  @Field(Int32) qty!: number;
  // @ts-expect-error a Field option that does not exist
  @Field({ type: Int32, requird: true }) other!: number;
}
