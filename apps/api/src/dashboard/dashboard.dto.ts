import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

/** Lengths are checked by the account service, which owns the password rule; here only the types. */
export class CredentialsDto {
  @IsString()
  email: string;

  @IsString()
  password: string;
}

export class CreateKeyDto {
  @IsString()
  @Length(1, 100)
  label: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  expiresInDays?: number;
}
