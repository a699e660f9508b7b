import { ServiceError } from '../core/errors.js';

// Content Delivery 2 answers errors as `{"error":{"type","message","data"}}` (what the vendor's
// delivery SDK reads: HttpError takes error.message; a 404 becomes ContentNotFoundError), not
// with the management API's `{"errors":[…]}`.

export class DeliveryError extends ServiceError {
  constructor(
    status: number,
    readonly type: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(status, [{ level: 'ERROR', code: type, message }]);
  }
  override toBody() {
    return { error: { type: this.type, message: this.message, data: this.data } };
  }
}

export const contentNotFound = (data: { deliveryId: string } | { deliveryKey: string }) =>
  new DeliveryError(404, 'CONTENT_NOT_FOUND', `No content found for ${'deliveryId' in data ? `delivery id ${data.deliveryId}` : `delivery key ${data.deliveryKey}`}`, data);

export const invalidParameter = (message: string, data: Record<string, unknown> = {}) => new DeliveryError(400, 'INVALID_PARAMETERS', message, data);
