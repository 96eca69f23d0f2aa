import { portContractSuites } from '../test-support/index.js';
import { naiveStore } from './support/naive-store.js';

for (const describeContract of portContractSuites) describeContract('Naive store', () => naiveStore());
