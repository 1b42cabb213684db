import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';

/**
 * The longest market name a path may carry. Hyperliquid's longest names are HIP-3 ones (`dex:NAME`, a dex
 * of up to 8 characters) and spot pairs (`PURR/USDC`), well under 40; the bound keeps an arbitrary string
 * from reaching a query.
 */
export const MAX_COIN_LENGTH = 40;

/**
 * The characters of Hyperliquid's market names: letters and digits, `:` of HIP-3 markets (`xyz:TSLA`), `@`
 * of spot indexes (`@107`), `/` of spot pairs (`PURR/USDC`), and `-`, `_` and `.`.
 */
export const COIN_PATTERN = /^[A-Za-z0-9@:/_.-]+$/;

/** The characters of a market name, as a path's and a query's coin check them. */
export const CoinCharacters = () => Matches(COIN_PATTERN, { message: 'coin may hold only letters, digits and : @ / _ . -' });
/** The length of a market name, as a path's and a query's coin check it. */
export const CoinLength = () => MaxLength(MAX_COIN_LENGTH, { message: `coin must be at most ${MAX_COIN_LENGTH} characters` });

/** A market name in a path: checked for length and characters, so anything else is a 400 naming it, not a lookup. */
export function PathCoin(description = 'Market symbol, case-insensitive (`btc` is `BTC`); an unknown coin is a 404') {
  return applyDecorators(
    CoinCharacters(),
    CoinLength(),
    IsString(),
    ApiProperty({ example: 'BTC', maxLength: MAX_COIN_LENGTH, pattern: COIN_PATTERN.source, description }),
  );
}

export class CoinParamsDto {
  @PathCoin()
  coin: string;
}
