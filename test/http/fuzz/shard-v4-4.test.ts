import { fuzzShard } from './pass';

fuzzShard(4, 4, 'v4');
