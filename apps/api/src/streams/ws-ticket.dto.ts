import { ApiProperty } from '@nestjs/swagger';

class WsTicketDataDto {
  @ApiProperty({ description: 'Pass as `GET /ws?ticket=`; spent by the first connection' }) ticket: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class WsTicketDto {
  @ApiProperty({ enum: ['success'] }) status: 'success';
  @ApiProperty({ type: WsTicketDataDto }) data: WsTicketDataDto;
}
