/**
 * The UI thread's handle on the inference worker: the app's worker RPC client (src/rpc/client.ts:
 * ids, progress callbacks, cancellation via AbortSignal, priorities, destroy()) with one
 * promise-returning method per inference method. It knows nothing about ORT; see
 * createWorkerClient.ts for the real worker and testSupport.ts for the in-process variant.
 */
import { RpcClient, type RpcCallOptions } from '../../rpc/client';
import type { Transport } from '../../rpc/transport';
import type { Api, Progress } from './protocol';

export type CallOptions = RpcCallOptions<Progress>;

export class InferenceClient extends RpcClient<Api> {
  constructor(transport: Transport) {
    super(transport, 'inference');
  }

  init(params: Api['init']['params'] = {}, options?: CallOptions) {
    return this.call('init', params, options);
  }

  load(params: Api['load']['params'], options?: CallOptions) {
    return this.call('load', params, options);
  }

  unload(modelId: string, options?: CallOptions) {
    return this.call('unload', { modelId }, options);
  }

  selfTest(params: Api['selfTest']['params'], options?: CallOptions) {
    return this.call('selfTest', params, options);
  }

  samEncode(params: Api['samEncode']['params'], options?: CallOptions) {
    return this.call('samEncode', params, options);
  }

  samDecode(params: Api['samDecode']['params'], options?: CallOptions) {
    return this.call('samDecode', params, options);
  }

  samDecodeGrid(params: Api['samDecodeGrid']['params'], options?: CallOptions) {
    return this.call('samDecodeGrid', params, options);
  }

  clipEmbedImages(params: Api['clipEmbedImages']['params'], options?: CallOptions) {
    return this.call('clipEmbedImages', params, options);
  }

  clipEmbedTexts(params: Api['clipEmbedTexts']['params'], options?: CallOptions) {
    return this.call('clipEmbedTexts', params, options);
  }

  evictEmbeddings(params: Api['evictEmbeddings']['params'] = {}, options?: CallOptions) {
    return this.call('evictEmbeddings', params, options);
  }

  stats(options?: CallOptions) {
    return this.call('stats', {}, options);
  }
}
