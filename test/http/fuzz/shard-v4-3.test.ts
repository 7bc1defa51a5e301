import { fuzzShard } from './pass';

fuzzShard(3, 4, 'v4');
