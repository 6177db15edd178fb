import { Type } from 'class-transformer';
import { ArrayMaxSize, IsDate, IsEmail, IsEnum, IsInt, IsNumber, IsString, Max, Min, ValidateNested } from 'class-validator';
import { EmailAddress, Field, Int32, Range, Tool } from '../src';

/** The order tool every benchmark measures: 10 lines, a customer with an email, an enum, a date-time, tags. */
export enum Status {
  Draft,
  Placed,
  Shipped,
}

export class Line {
  @Field(String) sku!: string;
  @Field(Int32) @Range(1, 1000) qty!: number;
  @Field(Number) price!: number;
}

export class Customer {
  @Field(String) name!: string;
  @Field() @EmailAddress() email!: string;
}

export class Order {
  @Field([Line]) lines!: Line[];
  @Field() customer!: Customer;
  @Field(Status) status!: Status;
  @Field() placed!: Date;
  @Field([String]) tags!: string[];
}

export class OrderTools {
  @Tool() placeOrder(order: Order): string {
    return `${order.lines.length}`;
  }
}

/** The same order written the class-validator way, for the plainToInstance + validateSync baseline. */
export class CvLine {
  @IsString() sku!: string;
  @IsInt() @Min(1) @Max(1000) qty!: number;
  @IsNumber() price!: number;
}

export class CvCustomer {
  @IsString() name!: string;
  @IsEmail() email!: string;
}

export class CvOrder {
  @ValidateNested({ each: true }) @Type(() => CvLine) @ArrayMaxSize(1000) lines!: CvLine[];
  @ValidateNested() @Type(() => CvCustomer) customer!: CvCustomer;
  @IsEnum(Status) status!: Status;
  @IsDate() @Type(() => Date) placed!: Date;
  @IsString({ each: true }) tags!: string[];
}

export function validOrder(): { order: Record<string, unknown> } {
  return {
    order: {
      lines: Array.from({ length: 10 }, (_, i) => ({ sku: `SKU-${i}`, qty: i + 1, price: 9.99 + i })),
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      status: 'Placed',
      placed: '2026-11-30T10:00:00Z',
      tags: ['rush', 'gift'],
    },
  };
}

/** Invalid deep inside: the eighth line's quantity is out of range. */
export function invalidOrder(): { order: Record<string, unknown> } {
  const args = validOrder();
  (args.order.lines as Record<string, unknown>[])[7].qty = 5000;
  return args;
}
