import { ApiProperty } from '@nestjs/swagger';
import { IsIn, Matches } from 'class-validator';
import { BUILDER_TIMEFRAMES, PERCENTILE_GROUPS, type BuilderTimeframe } from '#market';

export class BuildersListParamsDto {
  @ApiProperty({
    enum: BUILDER_TIMEFRAMES,
    description: 'The period: the last 24, 168 or 720 whole UTC hours up to the hour of the newest fill, or all time',
  })
  @IsIn(BUILDER_TIMEFRAMES)
  timeframe: BuilderTimeframe;
}

export class BuilderProfileParamsDto {
  @ApiProperty({
    example: '0x1cc34f6af34653c515b47a83e1de70ba9b0cda1f',
    description: "The builder's wallet address (0x and 40 hex digits, any case)",
  })
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'builder must be a 0x address of 40 hex digits' })
  builder: string;
}

export class BuilderRowDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The builder's referral code: not in the exchange data the service reads, so always null",
  })
  refCode: string | null;
  @ApiProperty({ description: "The builder's address, lower-case" }) address: string;
  @ApiProperty({ description: 'Builder fees earned in the period (USD)' }) revenue: number;
  @ApiProperty({ format: 'date-time', description: "The builder's first fill ever seen" }) timeJoined: string;
  @ApiProperty({ format: 'date-time', description: "Start of the service's record of the builder: its first fill, as timeJoined" })
  createdAt: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "The builder's fee rate as a fraction: all-time builder fees / routed notional, 8 decimal places (the same for every timeframe)",
  })
  usageFee: number | null;
  @ApiProperty({ description: 'Distinct wallets with fills through the builder in the period' }) users: number;
  @ApiProperty({ description: 'Notional (price x size) of the fills through the builder in the period (USD)' }) volume: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'revenue of the previous period of the same length; null for `all` (no previous period)',
  })
  revenuePrev: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'volume of the previous period; null for `all`' }) volumePrev: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'users of the previous period; null for `all`' }) usersPrev: number | null;
}

export class BuildersListResponseDto {
  @ApiProperty({
    type: [BuilderRowDto],
    description: 'Every builder with fills in the period or the previous one; by revenue descending, ties by address ascending',
  })
  builders: BuilderRowDto[];
}

export class BuilderInfoDto {
  @ApiProperty({ description: 'Lower-case' }) address: string;
  @ApiProperty({ type: String, nullable: true, description: 'Referral code: unknown to the service, null' }) code: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Unknown to the service, null' }) name: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Unknown to the service, null' }) url: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'X (Twitter) link: unknown to the service, null' }) xUrl: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Unknown to the service, null' }) xUserId: string | null;
  @ApiProperty({
    type: Object,
    nullable: true,
    description: 'The X account (xUserId, data, createdAt, updatedAt, followersCount): unknown to the service, null',
  })
  xUser: null;
  @ApiProperty({ format: 'date-time', description: "The builder's first fill" }) firstActivityAt: string;
  @ApiProperty({ description: 'All-time builder fees (USD)' }) revenue: number;
}

export class BuilderBiggestDayDto {
  @ApiProperty({ description: 'Builder fees of that UTC day' }) revenue: number;
  @ApiProperty({ format: 'date-time', description: 'Start of the UTC day (the earliest of equal days)' }) date: string;
}

export class BuilderMilestoneDto {
  @ApiProperty({ example: 1000, description: 'Cumulative revenue level: 1K, 10K, 100K, 1M, 10M USD' }) revenue: number;
  @ApiProperty({ example: '$1K' }) label: string;
  @ApiProperty({ description: 'All-time revenue has reached the level' }) done: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Time of the fill that took cumulative revenue to the level; null until reached',
  })
  date: string | null;
}

export class SeriesTableDto {
  @ApiProperty({ type: [String] }) columns: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: {} }, description: 'Rows, values in column order' }) data: unknown[][];
}

export class BuilderAnalyticsDto {
  @ApiProperty({
    type: SeriesTableDto,
    description: '[revenue, users, timestamp]: the 24 UTC hours up to the hour of the newest fill, oldest first',
  })
  '24h': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto, description: 'One row per UTC day: the 7 days up to the day of the newest fill, oldest first' })
  '7d': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto, description: 'One row per UTC day: the 30 days up to the day of the newest fill, oldest first' })
  '30d': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto, description: "One row per UTC day from the builder's first fill, oldest first" })
  all: SeriesTableDto;
}

export class BuilderTimeframeTablesDto {
  @ApiProperty({ type: SeriesTableDto }) '24h': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto }) '7d': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto }) '30d': SeriesTableDto;
  @ApiProperty({ type: SeriesTableDto }) all: SeriesTableDto;
}

export class BuilderProfileDto {
  @ApiProperty({ type: BuilderInfoDto }) info: BuilderInfoDto;
  @ApiProperty({ description: "Notional traded on the whole exchange (each trade once) in the list's 24h period" })
  hyperliquidVolume24h: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Fee rate as a fraction, as usageFee of the list' }) fee: number | null;
  @ApiProperty({ type: BuilderBiggestDayDto }) biggestDay: BuilderBiggestDayDto;
  @ApiProperty({ type: [BuilderMilestoneDto], description: '1K, 10K, 100K, 1M, 10M, in that order' })
  revenueMilestones: BuilderMilestoneDto[];
  @ApiProperty({ type: BuilderAnalyticsDto }) analytics: BuilderAnalyticsDto;
  @ApiProperty({
    type: BuilderTimeframeTablesDto,
    description:
      '[coin, volume, numWallets, exchangeType] per list timeframe, by volume descending then coin; exchangeType `Perp`, or `Spot` for spot pairs',
  })
  coinVolumeDistribution: BuilderTimeframeTablesDto;
  @ApiProperty({
    type: BuilderTimeframeTablesDto,
    description:
      `[numWallets, volume, minVolume, maxVolume, percentileGroup] per list timeframe. Wallets ranked by volume and cut at 1, 5, 10, 25 and 50 % of their count ` +
      `(rounded up); a group without wallets has no row; rows ${[...PERCENTILE_GROUPS].reverse().join(', ')}; maxVolume is the next group's minVolume, null for the top group`,
  })
  userVolumeDistribution: BuilderTimeframeTablesDto;
}
