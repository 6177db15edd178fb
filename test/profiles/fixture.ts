import {
  ArrayOf,
  Bytes,
  DateOnly,
  Description,
  DictionaryOf,
  Field,
  Int32,
  Length,
  Nullable,
  Param,
  Range,
  SetOf,
  TimeSpan,
  Tool,
  Uuid,
} from '../../src';

export enum Level {
  Low = 'low',
  High = 'high',
}

export class Line {
  @Field() sku!: string;
  @Field({ type: Int32, optional: true }) @Range(1, 1000) qty?: number;
  @Field({ type: Nullable(String), optional: true }) note?: string | null;
}

/** One tool with a parameter for each row of docs/schema-mapping.md that a profile writes differently. */
export class Everything {
  @Tool()
  order(
    @Param({ description: 'The customer.' }) @Length(2, 5) customer: string,
    @Param({ type: Int32 }) @Range(1, 1000) count: number,
    @Param({ type: Nullable(String) }) coupon: string | null,
    @Param({ type: Level }) level: Level = Level.Low,
    @Param({ type: Uuid }) id: string,
    @Param({ type: DateOnly, optional: true }) day: string | undefined,
    when: Date,
    where: URL,
    @Param({ type: Bytes }) data: Uint8Array,
    @Param({ type: SetOf(String) }) tags: Set<string>,
    @Param({ type: DictionaryOf(Number) }) prices: Record<string, number>,
    @Param({ type: [Line] }) lines: Line[],
    @Param({ type: ArrayOf(Int32) }) @Description('Sizes.') sizes: number[],
    @Param({ type: TimeSpan }) wait: number,
  ): string {
    return `${customer}${count}${coupon}${level}${id}${day}${when}${where}${data.length}${tags.size}${Object.keys(prices)}${lines.length}${sizes}${wait}`;
  }
}
