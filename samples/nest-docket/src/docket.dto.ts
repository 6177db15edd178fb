import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsEnum,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Field, Description } from 'onemodelcontext';

export enum Priority {
  Low = 'low',
  Normal = 'normal',
  Urgent = 'urgent',
}

/** Case numbers look like `2026-CV-0042`: a year, a two-letter court code and four digits. */
@ValidatorConstraint({ name: 'caseNumber' })
export class CaseNumberRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^\d{4}-[A-Z]{2}-\d{4}$/.test(value);
  }
  defaultMessage(): string {
    return 'number must look like 2026-CV-0042';
  }
}

export class PartyDto {
  @IsString() @Length(1, 80) name!: string;
  @IsString() @Description('plaintiff, defendant or witness') role!: string;
}

@Description('A new case for the docket')
export class NewCaseDto {
  @Validate(CaseNumberRule) @IsString() number!: string;
  @IsString() @Length(3, 120) title!: string;
  @IsEnum(Priority) priority: Priority = Priority.Normal;
  @ValidateNested({ each: true }) @Type(() => PartyDto) @ArrayMaxSize(20) @Field() parties!: PartyDto[];
  @IsOptional() @IsString() @MaxLength(500) notes?: string;
}

export class CaseDto {
  @Field() id!: number;
  @Field() number!: string;
  @Field() title!: string;
  @Field(Priority) priority!: Priority;
  @Field() openedAt!: Date;
  @Field({ type: [PartyDto] }) parties!: PartyDto[];
  @Field({ optional: true }) notes?: string;
}
