# cost_bits_per_draw.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot cost_bits_per_draw.gp` remakes cost_bits_per_draw.png and cost_bits_per_draw.svg from cost_bits_per_draw.dat.
if (!exists("outstem")) outstem = "cost_bits_per_draw"
set encoding utf8
set title "Randomness consumed per token drawn" noenhanced
set xlabel "vocabulary size (tokens)" noenhanced
set ylabel "random bits per token (log scale)" noenhanced
set grid back lc rgb '#dddddd'
set key outside right top box noenhanced
set logscale y
set format y '10^{%L}'
set datafile missing '-'
set yrange [10:1e+08]
set xtics nomirror
unset grid
set grid ytics
set key outside right top box
set terminal pngcairo size 1200,620 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
set boxwidth 0.0666667 absolute
set xrange [-0.5:3.5]
plot 'cost_bits_per_draw.dat'  using 0:(NaN):xtic(1) with points notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.366667):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#404040' title "exprace", \
     'cost_bits_per_draw.dat'  using ($0-0.366667):2 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.3):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#6a6a6a' title "cdf", \
     'cost_bits_per_draw.dat'  using ($0-0.3):3 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.233333):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#949494' title "linear", \
     'cost_bits_per_draw.dat'  using ($0-0.233333):4 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.166667):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#bdbdbd' title "alias", \
     'cost_bits_per_draw.dat'  using ($0-0.166667):5 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.1):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'cost_bits_per_draw.dat'  using ($0-0.0333333):7 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'cost_bits_per_draw.dat'  using ($0-0.0333333):7 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.0333333):8 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'cost_bits_per_draw.dat'  using ($0+0.0333333):8 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.1):9 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#e69f00' title "torch", \
     'cost_bits_per_draw.dat'  using ($0+0.1):9 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.166667):10 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#56b4e9' title "numpy", \
     'cost_bits_per_draw.dat'  using ($0+0.166667):10 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.233333):11 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#f0e442' title "numpy-legacy", \
     'cost_bits_per_draw.dat'  using ($0+0.233333):11 with boxes fs transparent pattern 2 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.3):12 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#000000' title "gsl", \
     'cost_bits_per_draw.dat'  using ($0+0.3):12 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.366667):13 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'cost_bits_per_draw.dat'  using ($0+0.366667):13 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle
unset output
set terminal svg size 1200,620 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
set boxwidth 0.0666667 absolute
set xrange [-0.5:3.5]
plot 'cost_bits_per_draw.dat'  using 0:(NaN):xtic(1) with points notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.366667):2 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#404040' title "exprace", \
     'cost_bits_per_draw.dat'  using ($0-0.366667):2 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.3):3 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#6a6a6a' title "cdf", \
     'cost_bits_per_draw.dat'  using ($0-0.3):3 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.233333):4 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#949494' title "linear", \
     'cost_bits_per_draw.dat'  using ($0-0.233333):4 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.166667):5 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#bdbdbd' title "alias", \
     'cost_bits_per_draw.dat'  using ($0-0.166667):5 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0-0.1):6 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#0072b2' title "llamacpp", \
     'cost_bits_per_draw.dat'  using ($0-0.0333333):7 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#d55e00' title "hf", \
     'cost_bits_per_draw.dat'  using ($0-0.0333333):7 with boxes fs transparent pattern 4 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.0333333):8 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#cc79a7' title "vllm", \
     'cost_bits_per_draw.dat'  using ($0+0.0333333):8 with boxes fs transparent pattern 5 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.1):9 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#e69f00' title "torch", \
     'cost_bits_per_draw.dat'  using ($0+0.1):9 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.166667):10 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#56b4e9' title "numpy", \
     'cost_bits_per_draw.dat'  using ($0+0.166667):10 with boxes fs transparent pattern 1 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.233333):11 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#f0e442' title "numpy-legacy", \
     'cost_bits_per_draw.dat'  using ($0+0.233333):11 with boxes fs transparent pattern 2 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.3):12 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#000000' title "gsl", \
     'cost_bits_per_draw.dat'  using ($0+0.3):12 with boxes fs transparent pattern 6 noborder lc rgb '#ffffff' notitle, \
     'cost_bits_per_draw.dat'  using ($0+0.366667):13 with boxes fs solid 1 border lc rgb '#000000' lc rgb '#009e73' title "candle", \
     'cost_bits_per_draw.dat'  using ($0+0.366667):13 with boxes fs transparent pattern 7 noborder lc rgb '#ffffff' notitle
unset output
